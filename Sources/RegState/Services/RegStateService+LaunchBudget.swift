import Foundation

extension RegStateService {
    /// The launch renewal, given at most ``RegStateConfiguration/launchBudget`` seconds: its result when it lands in
    /// time; otherwise the launch settles offline (the token-lifecycle rules: recoverable E, then B) and the renewal goes on, its
    /// result applied when it lands (C on success). One grant either way. `staleAccessToken` is the expired token the
    /// launch found, so a process that finds it already replaced by another uses the stored result and sends nothing.
    func renewWithinLaunchBudget(replacing staleAccessToken: String?) async -> Applied? {
        let renewal = renewal
        // An infinite budget waits for the renewal itself: no timer (the simulation's scheduler drives no real time).
        guard launchBudget.isFinite else {
            return await feed(await renewal.renew(replacing: staleAccessToken).effectEvent)
        }
        let flight = Task { await renewal.renew(replacing: staleAccessToken) }
        if let outcome = await LaunchBudget.first(flight, within: launchBudget) {
            return await feed(outcome.effectEvent)
        }
        logger.log(.info, "launch: the provider has not answered within \(launchBudget) s; settling offline")
        let stored = await storedSession()
        let applied = await feed(.renewalFailed(.transient(.noInternet), stored: stored))
        lateLaunchRenewal = Task { _ = await self.feed(await flight.value.effectEvent) }
        return applied
    }

    /// Waits until a launch renewal that outlived ``RegStateConfiguration/launchBudget`` has landed and its result is
    /// applied (**C**, or its **E**); returns at once when none is running.
    ///
    /// An app keeps running and gets the result as an event. A short-lived process — a command-line run, an app
    /// extension about to be suspended — calls this before it exits, so it never ends between the provider's rotation
    /// of the refresh token and the store's write of its successor (which would cost the session with a provider
    /// that detects reuse).
    public func finishPendingRenewal() async {
        guard let pending = lateLaunchRenewal else { return }
        await pending.value
        lateLaunchRenewal = nil
    }
}

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
