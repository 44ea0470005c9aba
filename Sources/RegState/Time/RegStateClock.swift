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
