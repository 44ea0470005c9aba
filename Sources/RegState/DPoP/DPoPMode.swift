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
