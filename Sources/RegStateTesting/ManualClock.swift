import Foundation
import RegState

/// A clock that moves only when told to; for tests and for the simulator's scripted worlds.
public final class ManualClock: RegStateClock {
    private let current: LockedValue<Date>
    private let advancesWhileSleeping: Bool

    /// Starts the clock at `start`. With `advancesWhileSleeping`, every wait the engine makes through the clock
    /// (a device authorization's polling interval, say) moves the clock on by its length and returns at once, so a
    /// test of polling runs without sleeping; otherwise a wait is a real one (``RegStateClock/sleep(for:)``).
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000), advancesWhileSleeping: Bool = false) {
        current = LockedValue(start)
        self.advancesWhileSleeping = advancesWhileSleeping
    }

    /// The instant the clock was last set to.
    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock on by `seconds` and returns (after a yield) when the clock advances while sleeping; otherwise
    /// waits `seconds` of wall time, returning early when the task is cancelled.
    public func sleep(for seconds: TimeInterval) async {
        guard advancesWhileSleeping else {
            guard seconds > 0 else { return }
            try? await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1_000_000_000))
            return
        }
        if seconds > 0, !Task.isCancelled { advance(by: seconds) }
        await Task.yield()
    }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
