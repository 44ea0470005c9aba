import Foundation

/// Whether RegState binds the session's tokens to the installation's DPoP key (RFC 9449), so that a copied token is
/// useless without the key; set with ``RegStateConfiguration/dpop``.
public enum DPoPMode: String, Sendable, Equatable, CaseIterable, Codable {
    /// Never: tokens are bearer tokens, no key is made.
    case off
    /// When the provider's discovery lists `dpop_signing_alg_values_supported` with `ES256` (the default). A provider
    /// that answers a proof with a `Bearer` token still gets a session, which ``TokenBinding`` reports as unbound.
    case whenOffered = "auto"
    /// Always: registration fails with ``DPoPError/notOffered`` against a provider whose discovery does not offer
    /// ES256 proofs, and a `Bearer` answer to a proof is refused (``DPoPError/unboundTokenIssued``), nothing stored.
    case required
}

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
