import Foundation

/// A Boolean behind an `NSLock`.
final class LockedFlag: @unchecked Sendable {  // Safe: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value = false

    /// Sets the flag; `true` when it was clear (the caller now owns it).
    func take() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if value { return false }
        value = true
        return true
    }

    /// Clears the flag.
    func clear() {
        lock.lock()
        value = false
        lock.unlock()
    }
}
