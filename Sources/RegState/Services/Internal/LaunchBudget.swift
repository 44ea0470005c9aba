import Foundation

/// Races a task against a deadline without cancelling it: the caller gets the value if it comes in time.
enum LaunchBudget {
    /// `task`'s value if it finishes within `seconds`, else `nil` (the task keeps running).
    static func first<T: Sendable>(_ task: Task<T, Never>, within seconds: TimeInterval) async -> T? {
        let gate = Gate<T?>()
        return await withCheckedContinuation { continuation in
            gate.arm(continuation)
            let timer = Task {
                try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
                gate.open(with: nil)
            }
            Task {
                gate.open(with: await task.value)
                timer.cancel()
            }
        }
    }

    /// Resumes one continuation once, with whichever value arrives first.
    private final class Gate<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<T, Never>?

        func arm(_ continuation: CheckedContinuation<T, Never>) {
            lock.withLock { self.continuation = continuation }
        }

        func open(with value: T) {
            let waiting = lock.withLock { () -> CheckedContinuation<T, Never>? in
                defer { continuation = nil }
                return continuation
            }
            waiting?.resume(returning: value)
        }
    }
}
