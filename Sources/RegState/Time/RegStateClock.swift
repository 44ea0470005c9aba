import Foundation

/// The source of the current time for every expiry decision RegState makes.
///
/// Time is a dependency so that tests move it by hand instead of sleeping, and so that the pure transition function
/// never reads the wall clock: the service reads the clock and passes the instant in with the event.
public protocol RegStateClock: Sendable {
    /// The current instant.
    func now() -> Date
}

/// The wall clock.
public struct SystemClock: RegStateClock {
    /// Creates the wall clock.
    public init() {}

    /// The current instant, from `Date()`.
    public func now() -> Date { Date() }
}

/// A clock that moves only when told to; for tests and for the simulator's scripted worlds.
public final class ManualClock: RegStateClock {
    private let current: LockedValue<Date>

    /// Starts the clock at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = LockedValue(start)
    }

    /// The instant the clock was last set to.
    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
