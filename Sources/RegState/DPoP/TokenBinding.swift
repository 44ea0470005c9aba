/// Whether the stored session's tokens are bound to a key, for `status` (the key itself is never shown).
public enum TokenBinding: Sendable, Equatable, CustomStringConvertible {
    /// No session tokens are stored.
    case none
    /// Bearer tokens: whoever holds them can use them.
    case bearer
    /// DPoP-bound tokens; `thumbprint` is the RFC 7638 thumbprint of the installation's key (`cnf.jkt`).
    case dpop(thumbprint: String)
    /// DPoP-bound tokens whose key cannot be read; `reason` says why. The session needs a new registration.
    case dpopKeyUnavailable(reason: String)

    /// `none`, `bearer`, `DPoP (jkt …)` or `DPoP (key unavailable: …)`.
    public var description: String {
        switch self {
        case .none: "none"
        case .bearer: "bearer (unbound)"
        case .dpop(let thumbprint): "DPoP (key thumbprint \(thumbprint))"
        case .dpopKeyUnavailable(let reason): "DPoP (key unavailable: \(reason))"
        }
    }
}
