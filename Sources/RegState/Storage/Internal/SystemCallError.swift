#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A failed system call: which call and the `errno` it set, never file contents. Every caller turns it into its own
/// error with ``reason`` (``StoreError``, ``JournalError``, the simulator's), so it has no sentence of its own.
package struct SystemCallError: Error, Sendable, Equatable {
    /// The call that failed (`open`, `rename`, …), or a check's short name.
    package let operation: String
    /// The `errno` value, or `0` for a check that is not a system call.
    package let code: Int32
    private let message: String?

    /// A failed call with the `errno` it set, or with a `message` a failed check that is not a system call (for
    /// example "not a regular file").
    package init(_ operation: String, code: Int32 = 0, message: String? = nil) {
        self.operation = operation
        self.code = code
        self.message = message
    }

    /// The system's text for the error (`strerror`) and the call, e.g. "Is a directory (rename)".
    package var reason: String {
        if let message { return "\(message) (\(operation))" }
        return "\(POSIX.errorText(code)) (\(operation))"
    }
}
