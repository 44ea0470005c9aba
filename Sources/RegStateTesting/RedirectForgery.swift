import Foundation

/// The ways a redirect can fail to match the pending login, as an attacker forges them from the genuine one: the
/// forgeries the engine's tests and the simulation's forged-redirect world hand a login in progress.
public enum RedirectForgery: String, CaseIterable, Sendable {
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
    public func apply(to genuine: URL) -> URL? {
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
