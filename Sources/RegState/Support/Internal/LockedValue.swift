import Foundation

/// A value guarded by a lock, for synchronous types that must be `Sendable` without being actors (in-memory stores).
/// `@unchecked Sendable`: `value` is only reached through `withLock`, which holds `lock` for the whole access.
package final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Wraps `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
