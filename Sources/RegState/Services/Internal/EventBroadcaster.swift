import Foundation

/// Delivers lettered events to subscribers: one bounded stream per subscriber, the latest event replayed to each new
/// one, and a count of everything broadcast so a short-lived host can wait for its printer to catch up.
///
/// A value owned by the service actor, which serialises every mutation; it never sees the machine's state.
struct EventBroadcaster {
    /// The most lettered events a slow subscriber may have waiting before the oldest are dropped.
    static let bufferSize = 64

    private var subscribers: [Int: AsyncStream<RegStateEvent>.Continuation] = [:]
    private var nextID = 0
    /// The last event broadcast, replayed to each new subscriber.
    private(set) var latest: RegStateEvent?
    /// How many events were broadcast since the service was created.
    private(set) var emittedCount = 0

    /// How many subscribers are listening.
    var count: Int { subscribers.count }

    /// A new, independent stream: the latest event first (if any), then every later one. `onTermination` is called
    /// with the subscriber's id when it stops iterating, so the owner can ``remove(_:)`` it.
    mutating func subscribe(onTermination: @escaping @Sendable (Int) -> Void) -> AsyncStream<RegStateEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: RegStateEvent.self,
                                                            bufferingPolicy: .bufferingNewest(Self.bufferSize))
        nextID += 1
        let id = nextID
        subscribers[id] = continuation
        if let latest { continuation.yield(latest) }
        continuation.onTermination = { _ in onTermination(id) }
        return stream
    }

    /// Forgets a subscriber that stopped iterating.
    mutating func remove(_ id: Int) {
        subscribers[id] = nil
    }

    /// Delivers `event` to every subscriber and remembers it as the latest.
    mutating func broadcast(_ event: RegStateEvent) {
        latest = event
        emittedCount += 1
        for continuation in subscribers.values { continuation.yield(event) }
    }

    /// Forgets the latest event (clear-state), so a new subscriber is not told about a session that is gone.
    mutating func forgetLatest() {
        latest = nil
    }
}
