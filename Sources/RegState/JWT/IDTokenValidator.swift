import Foundation

/// Validates an OpenID Connect ID token as OpenID Connect Core 1.0 §3.1.3.7 requires, before any claim is believed.
///
/// Checks run in a fixed order and the first failure is reported: structure, algorithm, key lookup by `kid`,
/// signature, `iss`, `aud`, `azp`, `exp`, `iat` (and maximum age), `nonce`, then the presence of `sub`. A missing key
/// is reported as ``IDTokenError/unknownKeyID(_:)`` so the caller can refetch the issuer's JWKS once and retry.
/// The validator reads no clock: the caller passes `now` from its injected ``RegStateClock``.
public struct IDTokenValidator: Sendable {
    /// The issuer identifier `iss` must equal exactly (no normalisation of trailing slashes or case).
    public var issuer: String
    /// This app's OAuth client ID, which `aud` must contain.
    public var clientID: String
    /// The clock skew tolerated on `exp` and `iat`, in seconds.
    public var leeway: TimeInterval
    /// How old `iat` may be, in seconds, or `nil` for no limit.
    public var maximumAge: TimeInterval?
    /// The signature algorithms accepted; `none` and HMAC cannot be expressed, so can never be accepted.
    public var allowedAlgorithms: Set<SignatureAlgorithm>
    /// The provider that verifies signatures.
    public var crypto: any CryptoProvider

    /// Creates a validator for one issuer and client.
    ///
    /// - Parameters:
    ///   - issuer: the expected `iss`, exactly as the discovery document states it.
    ///   - clientID: this app's client ID.
    ///   - leeway: clock skew tolerated on `exp` and `iat` (default 60 seconds).
    ///   - maximumAge: the oldest `iat` accepted, in seconds before `now`; `nil` for no limit.
    ///   - allowedAlgorithms: accepted algorithms (default RS256 and PS256).
    ///   - crypto: the signature verifier.
    public init(
        issuer: String,
        clientID: String,
        leeway: TimeInterval = 60,
        maximumAge: TimeInterval? = nil,
        allowedAlgorithms: Set<SignatureAlgorithm> = [.rs256, .ps256],
        crypto: any CryptoProvider = SystemCrypto()
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.leeway = leeway
        self.maximumAge = maximumAge
        self.allowedAlgorithms = allowedAlgorithms
        self.crypto = crypto
    }

    /// Validates `idToken` and returns it parsed, once every check has passed.
    ///
    /// - Parameters:
    ///   - idToken: the compact ID token from the token response.
    ///   - keySet: the issuer's JWKS.
    ///   - expectedNonce: the nonce sent in the authorization request, or `nil` when none was sent (for example an
    ///     ID token from a refresh).
    ///   - now: the current instant from the caller's clock.
    /// - Throws: ``IDTokenError`` for the first check that fails.
    public func validate(
        _ idToken: String, keySet: JSONWebKeySet, expectedNonce: String?, now: Date
    ) throws(IDTokenError) -> JSONWebToken {
        let token: JSONWebToken
        do {
            token = try JSONWebToken(compact: idToken)
        } catch {
            throw .malformed(error.errorDescription ?? "not a JWT")
        }
        try verifySignature(of: token, keySet: keySet)
        try checkIssuerAndAudience(of: token)
        try checkTimes(of: token, now: now)
        if let expectedNonce, token.nonce != expectedNonce { throw .nonceMismatch }
        guard token.subject != nil else { throw .malformed("no string \"sub\" claim") }
        return token
    }

    private func verifySignature(of token: JSONWebToken, keySet: JSONWebKeySet) throws(IDTokenError) {
        guard let algorithm = token.signatureAlgorithm, allowedAlgorithms.contains(algorithm) else {
            throw .unsupportedAlgorithm(token.algorithm)
        }
        guard let jwk = keySet.key(withID: token.keyID) else { throw .unknownKeyID(token.keyID) }
        // A key published for one algorithm must not verify another (RFC 7517 §4.4).
        if let keyAlgorithm = jwk.algorithm, keyAlgorithm != token.algorithm { throw .invalidSignature }
        let valid: Bool
        do {
            valid = try crypto.verify(
                signature: token.signature, message: token.signingInput, publicKey: jwk.rsaPublicKey(),
                algorithm: algorithm)
        } catch {
            throw .invalidSignature
        }
        guard valid else { throw .invalidSignature }
    }

    private func checkIssuerAndAudience(of token: JSONWebToken) throws(IDTokenError) {
        guard token.issuer == issuer else { throw .issuerMismatch(expected: issuer, found: token.issuer) }
        let audience = token.audience
        guard audience.contains(clientID) else { throw .audienceMismatch }
        let authorizedParty = token.authorizedParty
        if audience.count > 1, authorizedParty == nil { throw .authorizedPartyMismatch }
        if let authorizedParty, authorizedParty != clientID { throw .authorizedPartyMismatch }
    }

    private func checkTimes(of token: JSONWebToken, now: Date) throws(IDTokenError) {
        guard let expiresAt = token.expiresAt else { throw .malformed("no numeric \"exp\" claim") }
        guard now < expiresAt.addingTimeInterval(leeway) else { throw .expired(at: expiresAt) }
        guard let issuedAt = token.issuedAt else { throw .malformed("no numeric \"iat\" claim") }
        guard issuedAt <= now.addingTimeInterval(leeway) else { throw .issuedInFuture }
        if let maximumAge, now.timeIntervalSince(issuedAt) > maximumAge + leeway { throw .tooOld }
    }
}
