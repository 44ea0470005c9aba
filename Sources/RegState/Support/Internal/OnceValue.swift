import Foundation

/// A value that is set once, by whichever setter comes first, and awaited by one waiter: under ``SingleFlight``'s
/// timed wait (a flight's value against a deadline).
final class OnceValue<Value: Sendable>: Sendable {
    private struct Slot {
        var value: Value?
        var waiter: CheckedContinuation<Value, Never>?
    }

    private let slot = LockedValue(Slot())

    /// Sets the value, unless one was set before (then nothing happens); resumes the waiter.
    func resolve(_ value: Value) {
        let waiter = slot.withLock { slot -> CheckedContinuation<Value, Never>? in
            guard slot.value == nil else { return nil }
            slot.value = value
            defer { slot.waiter = nil }
            return slot.waiter
        }
        waiter?.resume(returning: value)
    }

    /// The value, once it is set.
    var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready = slot.withLock { slot -> Value? in
                    if let value = slot.value { return value }
                    slot.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
