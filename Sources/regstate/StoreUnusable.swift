/// The store directory cannot be used (not a directory, no permission, a damaged record the store refuses): an error
/// of the run, exit 1 with the reason, not bad usage.
struct StoreUnusable: Error, Sendable, Equatable {
    /// The store directory as given.
    var path: String
    /// Why, as the store said it.
    var reason: String

    /// One line for people, without the `regstate:` prefix.
    var message: String { "cannot use store directory \(path) (\(reason))" }
}
