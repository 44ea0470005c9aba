import Foundation

/// How the simulator treats DPoP (RFC 9449), as an authorization server and a resource server.
public enum SimulatorDPoPMode: String, Sendable, Equatable, CaseIterable {
    /// No DPoP: discovery does not offer it, a `DPoP` header is ignored, every token is `Bearer`.
    case off
    /// Discovery offers ES256 proofs; a token request with a valid proof gets tokens bound to its key (`DPoP`), one
    /// without gets bearer tokens. A bound token is honoured only with a proof by its key.
    case allowed
    /// As ``SimulatorDPoPMode/allowed``, and every token request must carry a valid proof (`400 invalid_dpop_proof` otherwise).
    case required
    /// A misconfigured provider: discovery offers ES256 proofs, but the token endpoint ignores them and issues bearer
    /// tokens.
    case advertisedOnly = "advertised-only"

    /// Whether proofs are checked and bind tokens (``SimulatorDPoPMode/allowed`` and ``SimulatorDPoPMode/required``).
    public var enforces: Bool { self == .allowed || self == .required }
}

/// Whether the simulator makes DPoP proofs carry a server nonce (RFC 9449 §8, §9).
public enum SimulatorDPoPNonce: String, Sendable, Equatable, CaseIterable {
    /// No nonces.
    case off
    /// Proofs must carry the current nonce: a proof without it is answered `use_dpop_nonce` with `DPoP-Nonce`.
    case required
    /// A hostile server: every answer gives a new nonce and none is ever accepted, so a client that retried more than
    /// once would loop.
    case changesEveryAnswer
}
