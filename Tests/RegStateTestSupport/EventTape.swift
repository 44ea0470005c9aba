import Foundation
import RegState
import Testing

/// Records one event stream on its own task, so a test can take the events in order or look at all of them so far,
/// with a deadline so a missing event fails the test instead of hanging the run.
///
/// The one tape of the test suites: the session's lettered events, ongoing access's events, anything an `AsyncStream`
/// carries.
public struct EventTape<Event: Sendable>: Sendable {
    /// How long to wait for an event that has not arrived yet: a liveness bound, not a timing, and generous because a
    /// sanitizer build on a loaded 2-core machine can leave the pump without a thread for seconds.
    public static var deadline: Duration { .seconds(60) }

    /// Reads the stream on its own task into `received`; stops reading when the tape is dropped or closed.
    private final class Pump: Sendable {
        let received = LockedValue<[Event]>([])
        let task: Task<Void, Never>

        init(_ stream: AsyncStream<Event>) {
            let received = self.received
            task = Task {
                for await event in stream { received.withLock { $0.append(event) } }
            }
        }

        deinit { task.cancel() }
    }

    private let pump: Pump
    private var consumed = 0

    /// Starts recording `stream`.
    public init(_ stream: AsyncStream<Event>) {
        pump = Pump(stream)
    }

    /// Every event recorded so far, taken or not.
    public var recorded: [Event] { pump.received.withLock { $0 } }

    /// The next `count` events; fewer, and a recorded issue, when they do not all arrive within ``deadline``.
    public mutating func take(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async -> [Event] {
        let wanted = consumed + count
        await waitFor(wanted)
        let all = recorded
        let taken = Array(all[consumed..<min(wanted, all.count)])
        consumed += taken.count
        if taken.count < count {
            Issue.record("only \(taken.count) of \(count) events arrived within \(Self.deadline)", sourceLocation: sourceLocation)
        }
        return taken
    }

    /// The next event, or `nil` (and a recorded issue) when none arrives within ``deadline``.
    public mutating func nextEvent(sourceLocation: SourceLocation = #_sourceLocation) async -> Event? {
        await take(1, sourceLocation: sourceLocation).first
    }

    /// Waits until at least `count` events were recorded (at most ``deadline``) and returns every event recorded so
    /// far; the caller checks the count.
    public func recorded(atLeast count: Int) async -> [Event] {
        await waitFor(count)
        return recorded
    }

    /// Stops recording.
    public func close() {
        pump.task.cancel()
    }

    /// The deadline is counted in the waiter's own turns (5 ms sleeps), not on the wall clock: when a loaded sanitizer
    /// run leaves every task without a thread for longer than the deadline, the waiter and the pump wake together, and
    /// a wall-clock deadline would give up before the pump had its turn to record events sent long before.
    private func waitFor(_ count: Int) async {
        let turn = Duration.milliseconds(5)
        var turnsLeft = Int(Self.deadline / turn)
        while pump.received.withLock({ $0.count }) < count, turnsLeft > 0 {
            try? await Task.sleep(for: turn)
            turnsLeft -= 1
        }
    }
}

extension EventTape where Event == RegStateEvent {
    /// Starts recording a new subscription to `service`'s lettered events.
    public init(_ service: RegStateService) async {
        self.init(await service.events())
    }

    /// The next `count` events' titles ("Active B", "Error E", ...); fewer, and a recorded issue, when they do not all
    /// arrive within ``deadline``.
    public mutating func next(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async -> [String] {
        await take(count, sourceLocation: sourceLocation).map(\.title)
    }

    /// Waits until at least `count` events were recorded and returns all their titles so far.
    public func titles(atLeast count: Int) async -> [String] {
        await recorded(atLeast: count).map(\.title)
    }

    /// Waits until at least `count` events were recorded and returns them all.
    public func events(atLeast count: Int) async -> [RegStateEvent] {
        await recorded(atLeast: count)
    }
}

/// Waits until `condition` holds, yielding in between; records an issue when it still does not hold after five
/// minutes: a bound against a hang, not a timing (a full parallel run on a loaded 2-core machine once took more than
/// a minute to queue a thousand requests).
public func eventually(sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async -> Bool) async {
    let bound: Duration = .seconds(300)
    let until = ContinuousClock.now + bound
    while !(await condition()) {
        guard ContinuousClock.now < until else {
            Issue.record("the condition did not hold within \(bound)", sourceLocation: sourceLocation)
            return
        }
        await Task.yield()
    }
}
