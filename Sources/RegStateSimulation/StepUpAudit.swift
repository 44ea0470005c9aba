import Foundation
import RegState

/// The step-up world's referee on the wire (``SimulationWorld/stepUp``):
/// - `challenge-no-renewal`: once a process's API request is answered with an RFC 9470 challenge, that process sends
///   no refresh-token grant until the call that got it has ended (a renewal carries the old sign-in);
/// - `step-up-once`: while a step-up's redirect is handed in again (a replay), the process sends no
///   authorization-code grant (the step-up's tokens are exchanged and stored once).
final class StepUpAudit: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`; `ledger` is Sendable.
    private let ledger: Ledger
    private let lock = NSLock()
    /// The process whose API call is being watched, and whether a challenge answered it.
    private var call: (process: Int, challenged: Bool)?
    /// The process handed a step-up redirect again.
    private var replay: Int?

    init(ledger: Ledger) { self.ledger = ledger }

    /// From now until ``callEnded()``, `process` makes one API call.
    func callStarted(_ process: Int) { lock.withLock { call = (process, false) } }

    func callEnded() { lock.withLock { call = nil } }

    /// From now until ``replayEnded()``, `process` is handed a step-up redirect it already took.
    func replayStarted(_ process: Int) { lock.withLock { replay = process } }

    func replayEnded() { lock.withLock { replay = nil } }

    /// A request leaves `process`.
    func leaving(_ request: HTTPRequest, from process: Int, label: String) {
        let grant = SimulatedNetwork.formValue("grant_type", in: request)
        let (call, replay) = lock.withLock { (self.call, self.replay) }
        if grant == "refresh_token", let call, call.process == process, call.challenged {
            ledger.violation("challenge-no-renewal", "\(label): a refresh-token grant after an RFC 9470 challenge")
        }
        if grant == "authorization_code", replay == process {
            ledger.violation("step-up-once", "\(label): the step-up's code exchanged again for a replayed redirect")
        }
    }

    /// An answer reached `process`.
    func answered(_ response: HTTPResponse, delivered: Bool, process: Int) {
        guard delivered, StepUpChallenge(response: response) != nil else { return }
        lock.withLock {
            if call?.process == process { call?.challenged = true }
        }
    }
}
