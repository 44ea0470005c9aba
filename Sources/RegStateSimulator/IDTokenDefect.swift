import Foundation
import RegState

/// A defect the simulator builds into every ID token it issues, so a test can check that the client refuses it
/// (OIDC Core 3.1.3.7) without a hand-written transport: set it with ``Simulator/setIDTokenDefect(_:)``.
public enum IDTokenDefect: String, Sendable, Equatable, CaseIterable {
    /// The signature does not verify against the published key (its first byte is changed).
    case badSignature
    /// The token is unsigned: `alg` is `none` and the signature is empty.
    case algNone
    /// `aud` names another client.
    case wrongAudience
    /// `iss` names another issuer (`https://evil.example`).
    case wrongIssuer
    /// `exp` is ten minutes before `iat`: the token was dead on arrival.
    case expired
    /// `nonce` is not the one the authorization request sent.
    case wrongNonce
    /// Signed by another key of the same kind under the published `kid` (the world's key set does not hold it).
    case otherKey
    /// `azp` names another client.
    case wrongAuthorizedParty
    /// `sub` names another user. A valid token at registration (there is nothing to compare it with); a refreshed
    /// ID token must be refused for it (OIDC Core 12.2).
    case otherSubject
    /// The header names `alg` twice: the signing algorithm, then `none` (RFC 7515 §4: a duplicate is an error; a
    /// first-wins reader would see a valid signed token). Signed as usual over that header.
    case duplicateHeaderAlgorithm
    /// The payload names `sub` twice: the user, then ``otherSubjectValue`` (RFC 7519 §4). Signed as usual.
    case duplicateClaim
    /// `sub` is 256 characters long (OIDC Core 2: at most 255 ASCII characters).
    case longSubject
    /// `aud` is this client and ``otherSubjectValue``, `azp` this client: an extra audience that is not trusted.
    case untrustedAudience

    /// The defects a token answering a sign-in is refused for (every case but ``otherSubject``).
    public static let registrationDefects = allCases.filter { $0 != .otherSubject }
    /// The subject an ``otherSubject`` token names.
    public static let otherSubjectValue = "someone-else"

    /// The issuer a ``wrongIssuer`` token names.
    public static let wrongIssuerValue = "https://evil.example"
}

extension Simulator {
    /// Builds `defect` into every ID token issued from now on; `nil` issues honest tokens again.
    public func setIDTokenDefect(_ defect: IDTokenDefect?) { idTokenDefect = defect }

    /// Builds `defect` into the ID tokens of refresh answers only (a sign-in's stay honest), in place of any set with
    /// ``setIDTokenDefect(_:)``; `nil` ends it.
    public func setRefreshedIDTokenDefect(_ defect: IDTokenDefect?) { refreshedIDTokenDefect = defect }

    /// `claims` signed as the world signs them, with the defect in effect (for a refresh answer's, `refreshing`).
    func signedIDToken(_ claims: [String: JSONValue], refreshing: Bool = false) throws -> String {
        var claims = claims
        let defect = refreshing ? refreshedIDTokenDefect ?? idTokenDefect : idTokenDefect
        switch defect {
        case .wrongAudience: claims["aud"] = "someone-else"
        case .wrongIssuer: claims["iss"] = .string(IDTokenDefect.wrongIssuerValue)
        case .expired: claims["exp"] = .number((claims["iat"]?.numberValue ?? 0) - 600)
        case .wrongNonce: claims["nonce"] = "replayed-nonce"
        case .wrongAuthorizedParty: claims["azp"] = "someone-else"
        case .otherSubject: claims["sub"] = .string(IDTokenDefect.otherSubjectValue)
        case .longSubject: claims["sub"] = .string(String(repeating: "s", count: 256))
        case .untrustedAudience:
            claims["azp"] = claims["aud"]
            claims["aud"] = .array([claims["aud"] ?? .null, .string(IDTokenDefect.otherSubjectValue)])
        case .badSignature, .algNone, .otherKey, .duplicateHeaderAlgorithm, .duplicateClaim, nil: break
        }
        switch defect {
        case .algNone:
            let header: JSONValue = ["alg": "none", "typ": "JWT"]
            return Base64URL.encode(header.serialized()) + "." + Base64URL.encode(JSONValue.object(claims).serialized()) + "."
        case .badSignature:
            let token = try mint.signedJWT(claims)
            guard let dot = token.lastIndex(of: ".") else { return token }
            let first = token.index(after: dot)
            return String(token[..<first]) + (token[first] == "A" ? "B" : "A") + String(token[token.index(after: first)...])
        case .otherKey:
            return try mint.signedJWTWithForeignKey(claims)
        case .duplicateHeaderAlgorithm:
            return try mint.signedJWT(claims, appendingToHeader: #","alg":"none""#)
        case .duplicateClaim:
            return try mint.signedJWT(claims, appendingToPayload: #","sub":"\#(IDTokenDefect.otherSubjectValue)""#)
        case .wrongAudience, .wrongIssuer, .expired, .wrongNonce, .wrongAuthorizedParty, .otherSubject, .longSubject,
             .untrustedAudience, nil:
            return try mint.signedJWT(claims)
        }
    }
}
