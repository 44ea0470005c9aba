import Foundation

/// Validates an ID token as OpenID Connect Core 1.0 §3.1.3.7 and RFC 8725 require, before any claim is believed:
/// checks in a fixed order (docs/Internals-Toolbox.md), first failure reported; no clock read, the caller passes `now`.
package struct IDTokenValidator: Sendable {
    /// The issuer identifier `iss` must equal exactly (no normalisation of trailing slashes or case).
    package var issuer: String
    /// This app's OAuth client ID, which `aud` must contain.
    package var clientID: String
    /// Audiences besides ``clientID`` that may appear in `aud`; any other entry is refused. Empty by default.
    package var trustedAudiences: Set<String>
    /// The clock skew tolerated on `exp`, `iat` and `nbf`, in seconds.
    package var leeway: TimeInterval
    /// How old `iat` may be, in seconds, or `nil` for no limit.
    package var maximumAge: TimeInterval?
    /// The signature algorithms accepted; `none` and HMAC cannot be expressed, so can never be accepted.
    package var allowedAlgorithms: Set<SignatureAlgorithm>
    /// The provider that verifies signatures.
    package var crypto: any CryptoProvider

    /// Creates a validator for one issuer and client; each parameter sets the property of its name.
    package init(
        issuer: String,
        clientID: String,
        trustedAudiences: Set<String> = [],
        leeway: TimeInterval = 60,
        maximumAge: TimeInterval? = nil,
        allowedAlgorithms: Set<SignatureAlgorithm> = [.rs256, .ps256, .es256],
        crypto: any CryptoProvider = SystemCrypto()
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.trustedAudiences = trustedAudiences
        self.leeway = leeway
        self.maximumAge = maximumAge
        self.allowedAlgorithms = allowedAlgorithms
        self.crypto = crypto
    }

    /// Validates `idToken` against the issuer's `keySet` (its keys are parsed once and cached in it) at `now`, and
    /// returns it parsed once every check has passed. `expectedNonce` is the authorization request's (`nil`: none).
    package func validate(
        _ idToken: String, keySet: JSONWebKeySet, expectedNonce: String?, now: Date
    ) throws(IDTokenError) -> JSONWebToken {
        let token = try parse(idToken)
        try verifySignature(of: token, keySet: keySet)
        try checkClaims(of: token, now: now)
        if let expectedNonce, token.nonce != expectedNonce { throw .nonceMismatch }
        try checkSubject(of: token)
        return token
    }

    /// Validates an ID token that came with a refresh (OpenID Connect Core 1.0 §12.2) against `original`, the one the
    /// session began with (it may have expired since): every check of ``validate(_:keySet:expectedNonce:now:)``.
    package func validateRefreshed(
        _ idToken: String, original: JSONWebToken, keySet: JSONWebKeySet, now: Date
    ) throws(IDTokenError) -> JSONWebToken {
        let token = try parse(idToken)
        try verifySignature(of: token, keySet: keySet)
        try checkClaims(of: token, now: now)
        try checkSubject(of: token)
        guard token.issuer == original.issuer, token.subject == original.subject else {
            throw .refreshedIdentityMismatch
        }
        if let nonce = token.nonce, nonce != original.nonce { throw .nonceMismatch }
        return token
    }

    /// Checks a validated ID token against what the login asked for (OIDC Core §3.1.3.7 items 12–13): a recent enough
    /// `auth_time` for a `max_age`, an `acr` asked for when one is required; times with the leeway.
    package func checkAuthentication(of token: JSONWebToken, meets requirement: AuthenticationRequirement,
                                    now: Date) throws(IDTokenError) {
        if let maxAge = requirement.maxAge {
            guard let authTime = try time("auth_time", in: token.claims) else { throw .authTimeMissing }
            let nowSeconds = now.timeIntervalSince1970
            guard authTime <= nowSeconds + leeway else { throw .invalidTimeClaim("auth_time") }
            if nowSeconds - authTime > TimeInterval(max(0, maxAge)) + leeway {
                throw .authenticationTooOld(authenticatedAt: Date(timeIntervalSince1970: authTime))
            }
        }
        if requirement.acrRequired, !requirement.acrValues.isEmpty {
            let acr = token.claims["acr"]?.stringValue
            guard let acr, requirement.acrValues.contains(acr) else { throw .acrNotAccepted(acr) }
        }
    }

    private func parse(_ idToken: String) throws(IDTokenError) -> JSONWebToken {
        do throws(JWTError) {
            return try JSONWebToken(compact: idToken)
        } catch {
            throw .invalidJWT(error)
        }
    }

    private func verifySignature(of token: JSONWebToken, keySet: JSONWebKeySet) throws(IDTokenError) {
        guard let algorithm = token.signatureAlgorithm, allowedAlgorithms.contains(algorithm) else {
            throw .unsupportedAlgorithm(token.algorithm)
        }
        let index = try keySet.indexOfKey(withID: token.keyID, for: algorithm)
        let valid: Bool
        do {
            let key = try keySet.verificationKey(at: index, crypto: crypto)
            valid = try key.verify(signature: token.signature, message: token.signingInput, algorithm: algorithm)
        } catch {
            throw .invalidSignature
        }
        guard valid else { throw .invalidSignature }
    }

    private func checkClaims(of token: JSONWebToken, now: Date) throws(IDTokenError) {
        let claims = token.claims
        guard case .string(let tokenIssuer)? = claims["iss"], tokenIssuer == issuer else {
            throw .issuerMismatch(expected: issuer, found: claims["iss"]?.stringValue)
        }
        let audience: [String]
        switch claims["aud"] {
        case .string(let single)?: audience = [single]
        case .array(let values)? where !values.isEmpty:
            audience = try values.map { value throws(IDTokenError) in
                guard case .string(let entry) = value else { throw .audienceMismatch }
                return entry
            }
        default: throw .audienceMismatch
        }
        guard audience.contains(clientID) else { throw .audienceMismatch }
        for entry in audience where entry != clientID && !trustedAudiences.contains(entry) {
            throw .untrustedAudience
        }
        switch claims["azp"] {
        case nil: if audience.count > 1 { throw .authorizedPartyMismatch }
        case .string(let party)?: if party != clientID { throw .authorizedPartyMismatch }
        default: throw .authorizedPartyMismatch
        }
        let nowSeconds = now.timeIntervalSince1970
        guard let expiresAt = try time("exp", in: claims) else { throw .malformed("no numeric \"exp\" claim") }
        guard nowSeconds < expiresAt + leeway else { throw .expired(at: Date(timeIntervalSince1970: expiresAt)) }
        guard let issuedAt = try time("iat", in: claims) else { throw .malformed("no numeric \"iat\" claim") }
        guard issuedAt <= nowSeconds + leeway else { throw .issuedInFuture }
        if let maximumAge, nowSeconds - issuedAt > maximumAge + leeway { throw .tooOld }
        if let notBefore = try time("nbf", in: claims), notBefore > nowSeconds + leeway { throw .notYetValid }
    }

    /// A NumericDate claim: `nil` when absent, an error unless a time in ``RecordedTime``'s range (1970 to 9999).
    private func time(_ name: String, in claims: [String: JSONValue]) throws(IDTokenError) -> TimeInterval? {
        switch claims[name] {
        case nil: return nil
        case .number(let seconds)? where RecordedTime.lifetime(seconds) != nil: return seconds
        case .number?: throw .invalidTimeClaim(name)
        // A non-number `exp`, `iat` or `auth_time` is reported as missing; a non-number `nbf` is refused.
        default: if name == "nbf" { throw .invalidTimeClaim(name) } else { return nil }
        }
    }

    private func checkSubject(of token: JSONWebToken) throws(IDTokenError) {
        guard case .string(let subject)? = token.claims["sub"] else { throw .malformed("no string \"sub\" claim") }
        let bytes = subject.utf8
        guard (1...255).contains(bytes.count), bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            throw .invalidSubject
        }
    }
}
