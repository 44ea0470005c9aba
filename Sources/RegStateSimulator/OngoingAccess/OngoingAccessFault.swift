import Foundation

/// A bad answer the ``OngoingAccessProvider`` can give on purpose, to show the app refuses it.
public enum OngoingAccessFault: String, Sendable, Equatable, Codable, CaseIterable {
    /// Signed with another key under the provider's `kid`.
    case wrongSigningKey
    /// `alg: none` and an empty signature.
    case algorithmNone
    /// `alg: HS512` with a MAC for a signature.
    case algorithmHS512
    /// A `kid` no key has.
    case unknownKeyID
    /// No `kid` at all.
    case missingKeyID
    /// A `jku` on another host, with a `kid` only that key set would have.
    case foreignKeySetURL
    /// The payload changed after signing.
    case tamperedPayload
    /// The signature one byte short.
    case truncatedSignature
    /// Signed by a 1024-bit key the provider's own key set (an allow-listed `jku`) publishes.
    case weakKey
    /// A payload with a duplicate member (a second `nonce`), correctly signed.
    case duplicateMembers
    /// The pre-authorization answer carries a code that has already expired.
    case expiredPreAuthorizationCode
    /// The previous answer of the endpoint is sent again (its nonce answers another request).
    case replayedAnswer
    /// Signed with a new key the provider rotated to: the pinned keys lack it, the provider's own key set (an
    /// allow-listed `jku`, named in the header) publishes it. A good answer, checkable only with that key set.
    case rotatedKey
}

/// The endpoints a fault can be set on.
public enum OngoingAccessEndpoint: String, Sendable, Equatable, Codable, CaseIterable {
    /// `POST v1/oauth/authorize`: the pre-authorization.
    case preAuthorization
    /// `POST v1/oauth/token` with an authorization code.
    case tokenExchange
    /// `POST v1/oauth/token` with a refresh token.
    case refresh
    /// `POST v1/session`: the data session.
    case session
}

/// Why the ongoing-access provider refused something outside HTTP (the consent screen). Never carries a code.
public enum OngoingAccessProviderError: Error, Sendable, Equatable {
    /// The URL is not the provider's consent screen, or names no pre-authorization it ever issued.
    case unknownConsentRequest
    /// The world could not be read or saved; the detail says why.
    case world(String)
}

extension OngoingAccessProviderError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .unknownConsentRequest: "The URL is not a consent request of the ongoing-access provider."
        case .world(let detail): "The ongoing-access provider's world cannot be used (\(detail))."
        }
    }
}
