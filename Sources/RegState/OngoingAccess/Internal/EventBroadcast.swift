import Foundation

/// Hands each event to every live subscriber stream; a subscriber's stream is removed when it terminates.
///
/// Synchronous (behind a lock) so that `onTermination` removes a subscriber at once, without an unsupervised task.
final class EventBroadcast<Event: Sendable>: Sendable {
    private struct Subscribers {
        var next = 0
        var continuations: [Int: AsyncStream<Event>.Continuation] = [:]
    }

    private let subscribers = LockedValue(Subscribers())
    private let bufferSize: Int

    /// A broadcast whose subscribers each buffer at most `bufferSize` events (the newest are kept).
    init(bufferSize: Int) {
        self.bufferSize = bufferSize
    }

    /// A new stream that receives every event sent from now on.
    func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(bufferSize))
        let id = subscribers.withLock { state in
            defer { state.next += 1 }
            state.continuations[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { $0.continuations[id] = nil }
        }
        return stream
    }

    /// How many streams are live.
    var count: Int { subscribers.withLock { $0.continuations.count } }

    /// Sends `event` to every live stream.
    func send(_ event: Event) {
        for continuation in subscribers.withLock({ Array($0.continuations.values) }) {
            continuation.yield(event)
        }
    }
}
