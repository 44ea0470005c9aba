import Foundation

/// Hands each event to every live subscriber (one bounded stream each, the newest kept; the latest replayed on ask).
/// Synchronous behind a lock, so `onTermination` removes a subscriber at once, without an unsupervised task.
package final class EventBroadcast<Event: Sendable>: Sendable {
    private struct Subscribers {
        var next = 0
        var continuations: [Int: AsyncStream<Event>.Continuation] = [:]
        var latest: Event?
        var sent = 0
    }

    private let subscribers = LockedValue(Subscribers())
    private let bufferSize: Int
    private let replaysLatest: Bool

    /// A broadcast whose subscribers each buffer at most `bufferSize` events (the newest are kept); with
    /// `replaysLatest`, a new subscriber first gets the last event sent.
    package init(bufferSize: Int, replaysLatest: Bool = false) {
        self.bufferSize = bufferSize
        self.replaysLatest = replaysLatest
    }

    /// A new, independent stream: the latest event first (when replayed), then every event sent from now on.
    package func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(bufferSize))
        let id = subscribers.withLock { state in
            defer { state.next += 1 }
            state.continuations[state.next] = continuation
            if let latest = state.latest { continuation.yield(latest) }
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { $0.continuations[id] = nil }
        }
        return stream
    }

    /// How many streams are live.
    package var count: Int { subscribers.withLock { $0.continuations.count } }

    /// How many events were sent since the broadcast was created.
    package var sentCount: Int { subscribers.withLock { $0.sent } }

    /// Sends `event` to every live stream (and remembers it as the latest, when replayed).
    package func send(_ event: Event) {
        let live = subscribers.withLock { state in
            state.sent += 1
            if replaysLatest { state.latest = event }
            return Array(state.continuations.values)
        }
        for continuation in live { continuation.yield(event) }
    }

    /// Forgets the latest event (clear-state), so a new subscriber is not told about a session that is gone.
    package func forgetLatest() {
        subscribers.withLock { $0.latest = nil }
    }
}
