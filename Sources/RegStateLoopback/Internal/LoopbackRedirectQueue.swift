import Foundation

/// What the loopback listener shares between its serving thread and the tasks waiting on it: the redirects caught and
/// not yet handed out, the one wait in progress, and whether the listener was closed. Always used under a lock.
struct LoopbackRedirectQueue {
    /// The wait in progress: who to resume, and when it times out.
    struct Waiter {
        /// Tells one wait apart from a later one (a cancellation never ends the wrong wait).
        let id: UInt64
        /// Resumed exactly once: with a redirect, ``LoopbackListenerError/timedOut``, or ``LoopbackListenerError/cancelled``.
        let continuation: CheckedContinuation<Result<URL, LoopbackListenerError>, Never>
        /// When the wait ends with ``LoopbackListenerError/timedOut``.
        let deadline: Date
    }

    /// How many caught redirects wait for a wait at most, and how many handed-out targets are remembered: past this
    /// the oldest goes. (A local process flooding the port can push out a redirect only by sending this many more
    /// before the app takes the next, which it does at once.)
    static let capacity = 64

    /// Redirects caught while nobody was waiting (the app was checking the previous one), oldest first.
    var pending: [URL] = []
    /// Request targets already caught: a reload of the page is answered again but not handed out twice.
    var seenTargets: [String] = []
    /// The wait in progress.
    var waiter: Waiter?
    /// The number the next wait gets.
    var nextWaiterID: UInt64 = 0
    /// Set by ``LoopbackRedirectListener/close()``: the port is released and no wait begins again.
    var closed = false

    /// Takes a caught redirect for `target`: hands it to the wait in progress (returned, to be resumed outside the
    /// lock) or keeps it for the next one. A target caught before (a reload) is ignored.
    mutating func catchRedirect(_ url: URL, target: String) -> (Waiter, URL)? {
        guard !seenTargets.contains(target) else { return nil }
        seenTargets.append(target)
        if seenTargets.count > Self.capacity { seenTargets.removeFirst() }
        if let waiter {
            self.waiter = nil
            return (waiter, url)
        }
        pending.append(url)
        if pending.count > Self.capacity { pending.removeFirst() }
        return nil
    }

    /// The wait in progress if its deadline has passed at `now` (removed, to be resumed outside the lock).
    mutating func expiredWaiter(at now: Date) -> Waiter? {
        guard let waiter, now >= waiter.deadline else { return nil }
        self.waiter = nil
        return waiter
    }
}
