/// Bad usage: an unknown command or option, a missing or malformed value, options that do not go together. Exit 2.
struct UsageError: Error, Sendable, Equatable {
    /// One line for people, without the `regstate:` prefix.
    var message: String

    /// Creates the error.
    init(_ message: String) {
        self.message = message
    }
}
