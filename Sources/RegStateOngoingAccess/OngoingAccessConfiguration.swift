import Foundation
import RegState

/// What an app tells ``OngoingAccessService`` about the provider and itself.
public struct OngoingAccessConfiguration: Sendable {
    /// The provider's base URL; the endpoints live under `v1/`.
    public var providerURL: URL
    /// The app's identifier at the provider (its `client_id`).
    public var appID: String
    /// The contract that says which data the app may read.
    public var contractID: String
    /// Where the consent screen redirects back to.
    public var redirectURI: URL
    /// The `kid` under which the provider knows the app's public key.
    public var appKeyID: String
    /// The provider's public keys, pinned in the app; answers must name one of them (or of an allow-listed `jku`).
    public var providerKeys: JSONWebKeySet
    /// The key-set URLs a `jku` header may name; any other `jku` is refused and never fetched.
    public var allowedKeySetURLs: [URL]
    /// The algorithms accepted on answers: PS512 only by default, the algorithm the ongoing-access design's provider signs with.
    /// Widening it (for a provider that signs RS256, say) is an explicit choice the app makes here; then any listed
    /// algorithm verifies against a pinned key that carries no `alg` (a key with an `alg` verifies that one only).
    public var allowedAlgorithms: Set<SignatureAlgorithm>
    /// When the refresh token has expired: `true` (the default) sends the user through consent again, `false` fails
    /// with ``OngoingAccessError/oAuthTokenExpired``.
    public var autoRecoverExpiredCredentials: Bool
    /// Seconds before a token's expiry at which it already counts as expired (default 30): an access token is
    /// refreshed then, a refresh token is treated as expired.
    public var gracePeriod: TimeInterval
    /// Clock skew tolerated on an answer's `iat` and `exp`, in seconds (default 60).
    public var answerLeeway: TimeInterval
    /// How old an answer's `iat` may be before it counts as replayed, in seconds (default 300).
    public var maximumAnswerAge: TimeInterval

    /// Creates a configuration.
    public init(
        providerURL: URL, appID: String, contractID: String, redirectURI: URL, appKeyID: String,
        providerKeys: JSONWebKeySet, allowedKeySetURLs: [URL] = [],
        allowedAlgorithms: Set<SignatureAlgorithm> = [.ps512], autoRecoverExpiredCredentials: Bool = true,
        gracePeriod: TimeInterval = 30, answerLeeway: TimeInterval = 60, maximumAnswerAge: TimeInterval = 300
    ) {
        self.providerURL = providerURL
        self.appID = appID
        self.contractID = contractID
        self.redirectURI = redirectURI
        self.appKeyID = appKeyID
        self.providerKeys = providerKeys
        self.allowedKeySetURLs = allowedKeySetURLs
        self.allowedAlgorithms = allowedAlgorithms
        self.autoRecoverExpiredCredentials = autoRecoverExpiredCredentials
        self.gracePeriod = gracePeriod
        self.answerLeeway = answerLeeway
        self.maximumAnswerAge = maximumAnswerAge
    }
}

/// The outside effects ``OngoingAccessService`` uses: its own, so it shares nothing mutable with the registration
/// engine.
public struct OngoingAccessDependencies: Sendable {
    /// The app's private key; requests are signed with it (PS512).
    public var appPrivateKey: RSAPrivateKey
    /// Shows the consent screen.
    public var consent: any ConsentPresenter
    /// Where the token is kept between launches; `nil` leaves keeping it to the app.
    public var tokenStore: OngoingAccessTokenStore?
    /// How requests are sent.
    public var transport: any HTTPTransport
    /// The current time.
    public var clock: any RegStateClock
    /// Signatures, hashes and random bytes.
    public var crypto: any RSASigningProvider

    /// Creates the dependencies.
    public init(appPrivateKey: RSAPrivateKey, consent: any ConsentPresenter, tokenStore: OngoingAccessTokenStore? = nil,
                transport: any HTTPTransport = URLSessionTransport(), clock: any RegStateClock = SystemClock(),
                crypto: any RSASigningProvider = SystemCrypto()) {
        self.appPrivateKey = appPrivateKey
        self.consent = consent
        self.tokenStore = tokenStore
        self.transport = transport
        self.clock = clock
        self.crypto = crypto
    }
}
