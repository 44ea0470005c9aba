import Foundation
import RegState

/// The forged-redirect world's referee on the wire (``SimulationWorld/forgedRedirect``): while a process is handed a
/// redirect that must make no token request (a forged one, or the genuine one after the login was discarded), any
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

/// The ways a redirect can fail to match the pending login, as an attacker forges them from the genuine one.
enum RedirectForgery: String, CaseIterable {
    /// The genuine code with another `state`.
    case wrongState = "wrong-state"
    /// The genuine code, no `state`.
    case noState = "no-state"
    /// Another issuer's `iss`.
    case otherIssuer = "other-issuer"
    /// Another path than the client's redirect URI.
    case otherRedirect = "other-redirect"
    /// No code.
    case noCode = "no-code"

    /// `genuine` forged this way (`nil` only for a URL that has no components).
    func apply(to genuine: URL) -> URL? {
        guard var components = URLComponents(url: genuine, resolvingAgainstBaseURL: false) else { return nil }
        var items = components.queryItems ?? []
        switch self {
        case .wrongState: items = items.map { $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0 }
        case .noState: items.removeAll { $0.name == "state" }
        case .otherIssuer:
            items.removeAll { $0.name == "iss" }
            items.append(URLQueryItem(name: "iss", value: "https://attacker.example"))
        case .otherRedirect: components.path = "/elsewhere"
        case .noCode: items.removeAll { $0.name == "code" }
        }
        components.queryItems = items
        return components.url
    }
}
