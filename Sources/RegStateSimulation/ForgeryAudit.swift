import Foundation
import RegState

/// The forged-redirect world's referee on the wire (``SimulationWorld/forgedRedirect``): while a process is handed a
/// redirect that must make no token request (a forged one), any
/// authorization-code grant that process sends is a `forged-refused` violation, reported as it leaves.
final class ForgeryAudit: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`; `ledger` is Sendable.
    private let ledger: Ledger
    private let lock = NSLock()
    /// The process being handed such a redirect, and what it is.
    private var watched: (process: Int, what: String)?

    init(ledger: Ledger) { self.ledger = ledger }

    /// From now until ``stopWatching()``, `process` must send no authorization-code grant (`what` it was handed).
    func watch(_ process: Int, handed what: String) { lock.withLock { watched = (process, what) } }

    func stopWatching() { lock.withLock { watched = nil } }

    /// A request leaves `process`.
    func leaving(_ request: HTTPRequest, from process: Int, label: String) {
        guard SimulatedNetwork.formValue("grant_type", in: request) == "authorization_code",
              let watched = lock.withLock({ watched }), watched.process == process
        else { return }
        ledger.violation("forged-refused", "\(label): a code exchange while handling \(watched.what)")
    }
}
