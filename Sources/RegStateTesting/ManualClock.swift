import Foundation
import RegState

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
