import Foundation
import RegState

/// The memory world's bookkeeping: the event subscribers the simulated app holds open on each process, and the
/// largest retained counts seen, for the trace.
///
/// The invariant (`memory-bounded`, ``SimulationRun/checkRetained()``) bounds what a live service retains by what
/// the app holds: its live subscribers may exceed the streams the app keeps open only by the ones it cancelled whose
/// tasks have not yet run to their end, and its flights, DPoP nonces and remembered pending logins stay under small
/// constants. A subscriber, flight, nonce or login kept per step breaks the bound within a few hundred steps of a
/// life of thousands.
final class MemoryWatch: @unchecked Sendable {
    // @unchecked: used only from the SimulationRun actor (the class is a reference so that the actor's stored
    // property stays a constant).
    /// Listening tasks the app holds open, per incarnation.
    var listeners: [Int: [Task<Void, Never>]] = [:]
    /// Listening tasks cancelled whose stream may not have ended yet, per incarnation, with the step of the cancel.
    var cancelled: [Int: [(step: Int, task: Task<Void, Never>)]] = [:]
    /// The most listeners the app holds open on one process.
    static let maximumListeners = 4
    /// Steps a cancelled listener gets to end its stream before it counts as retained.
    static let cancelGrace = 8
    /// Flights: the access-token answer and the security token.
    static let maximumFlights = 2
    /// Origins the simulated world has (provider, backend).
    static let maximumNonces = 2
    /// The largest total seen in the run.
    var largest = 0
    /// Incarnations already reported (one violation per process, not one per step).
    var reported: Set<Int> = []

    /// The cancelled listeners of `incarnation` still within their grace at `step` (the others are forgotten).
    func pendingCancels(of incarnation: Int, at step: Int) -> Int {
        cancelled[incarnation, default: []].removeAll { $0.step + Self.cancelGrace < step }
        return cancelled[incarnation, default: []].count
    }

    /// Cancels every listener of `incarnation` (the process ended: its streams end with the service).
    func forget(_ incarnation: Int) {
        listeners[incarnation]?.forEach { $0.cancel() }
        listeners[incarnation] = nil
        cancelled[incarnation] = nil
    }
}
