import Foundation

/// The source of the current time for every expiry decision and every wait RegState makes: a dependency, so tests
/// move it by hand instead of sleeping, and a simulation's virtual clock decides when a wait ends.
public protocol RegStateClock: Sendable {
    /// The current instant.
    func now() -> Date
    /// Returns after `seconds` of this clock's time, or sooner when the task is cancelled.
    func sleep(for seconds: TimeInterval) async
}

extension RegStateClock {
    /// Waits `seconds` of wall time (`Task.sleep`), returning early when the task is cancelled.
    public func sleep(for seconds: TimeInterval) async {
        guard seconds > 0 else { return }
        try? await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1_000_000_000))
    }
}

/// The wall clock.
public struct SystemClock: RegStateClock {
    /// Creates the wall clock.
    public init() {}

    /// The current instant, from `Date()`.
    public func now() -> Date { Date() }
}
