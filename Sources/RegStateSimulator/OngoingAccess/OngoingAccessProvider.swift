import Foundation
import RegState
import RegStateOngoingAccess

/// An in-process ongoing-access provider in the digi.me style, speaking HTTP semantics through
/// ``transport`` so that `OngoingAccessService`'s real code runs against it.
///
/// It has its own RSA key (answers are PS512 JWS with its `kid`), verifies the app's PS512-signed requests (known
/// `kid`, fresh nonce, recent timestamp), issues pre-authorization codes, plays the consent screen through
/// ``acceptConsent(_:)`` and ``refuseConsent(_:)`` (or ``ScriptedConsent``), exchanges codes with PKCE, refreshes
/// without extending the refresh token's expiry, and serves accounts and files filtered by each session's scope.
/// Every bad answer the app must refuse is a ``OngoingAccessFault`` set with ``setFault(_:on:)``.
///
/// With a `persistence` directory the world is saved in `ongoing-access-world.json` there after every change, so
/// separate CLI runs share it. Credentials are stored as SHA-256 hashes only.
public actor OngoingAccessProvider {
    /// The knobs in effect.
    public internal(set) var configuration: OngoingAccessProviderConfiguration
    /// Every request received, oldest first, as `"METHOD /path"` (session keys shown as `:key`).
    public internal(set) var requestLog: [String] = []

    let clock: any RegStateClock
    let crypto: any RSASigningProvider
    let signingKey: RSAPrivateKey
    let publicKey: RSAPublicKey
    let file: OngoingAccessWorldFile?
    var world: OngoingAccessWorld
    var faults: [OngoingAccessEndpoint: OngoingAccessFault] = [:]
    var lastAnswers: [OngoingAccessEndpoint: String] = [:]
    /// The key of the ``OngoingAccessFault/rotatedKey`` fault, made the first time it signs (the key set publishes it
    /// from then on).
    var rotatedKey: RSAPrivateKey?
    /// Whether the key set (`GET v1/jwks`) answers `503` (``setKeySetDown(_:)``).
    var keySetDown = false
    /// What every endpoint answers in an outage (``setOutage(status:retryAfter:)``): a status and a `Retry-After`.
    var outage: (status: Int, retryAfter: String?)?

    /// Creates a provider, or reopens the world saved in `persistence`.
    ///
    /// - Throws: ``OngoingAccessProviderError/world(_:)`` when the world or key cannot be read, made or saved.
    public init(configuration: OngoingAccessProviderConfiguration = OngoingAccessProviderConfiguration(),
                clock: any RegStateClock = SystemClock(), crypto: any RSASigningProvider = SystemCrypto(),
                persistence: URL? = nil) throws(OngoingAccessProviderError) {
        let file = try persistence.map { directory throws(OngoingAccessProviderError) in
            try OngoingAccessWorldFile(directory: directory)
        }
        let loaded = try file?.load()
        do {
            if let loaded, let der = Data(base64Encoded: loaded.signingKeyDER) {
                signingKey = RSAPrivateKey(pkcs1DER: der)
                world = loaded
            } else {
                signingKey = try configuration.signingKey ?? crypto.generateRSAPrivateKey(bits: 2048)
                world = OngoingAccessWorld(signingKeyDER: signingKey.pkcs1DER.base64EncodedString(), keyID: "")
            }
            publicKey = try crypto.publicKey(of: signingKey)
        } catch {
            throw .world("the signing key cannot be used")
        }
        if world.keyID.isEmpty {
            world.keyID = "ongoing-" + String(Base64URL.encode(crypto.sha256(publicKey.modulus)).prefix(12))
        }
        self.configuration = configuration
        self.clock = clock
        self.crypto = crypto
        self.file = file
        if let file, world != loaded { try file.save(world) }
    }

    /// A transport that delivers requests under ``OngoingAccessProviderConfiguration/baseURL`` to this provider.
    public nonisolated var transport: any HTTPTransport { OngoingAccessTransport(provider: self) }

    /// The provider's public key set, to pin in the app.
    public var keySet: JSONWebKeySet {
        JSONWebKeySet(keys: [JSONWebKey(publicKey: publicKey, keyID: world.keyID, algorithm: configuration.signingAlgorithm)])
    }

    /// The `kid` of the signing key.
    public var keyID: String { world.keyID }

    /// An app configuration that matches this provider: its URL, app, contract, first redirect, key set and `jku`.
    ///
    /// - Parameter appKeyID: the `kid` the app's key is registered under (see ``registerAppKey(_:keyID:)``).
    public func appConfiguration(appKeyID: String) -> OngoingAccessConfiguration {
        OngoingAccessConfiguration(
            providerURL: configuration.baseURL, appID: configuration.appID, contractID: configuration.contractID,
            redirectURI: SimulatorConfiguration.literalURL(configuration.redirectURIs.first ?? "com.example.app:/ongoing-callback"),
            appKeyID: appKeyID, providerKeys: keySet, allowedKeySetURLs: [configuration.keySetURL])
    }

    // MARK: Knobs

    /// Registers (or replaces) the app's public key under `keyID`.
    public func registerAppKey(_ key: RSAPublicKey, keyID: String) { configuration.appKeys[keyID] = key }

    /// Makes `endpoint` give the bad answer `fault` from now on; `nil` makes it answer well again.
    /// ``OngoingAccessFault/rotatedKey`` makes the new key at once, and the key set publishes it from then on.
    public func setFault(_ fault: OngoingAccessFault?, on endpoint: OngoingAccessEndpoint) {
        faults[endpoint] = fault
        if fault == .rotatedKey, rotatedKey == nil { rotatedKey = try? crypto.generateRSAPrivateKey(bits: 2048) }
    }

    /// Makes the key set (`GET v1/jwks`) answer `503 Service Unavailable` (an outage of that endpoint alone), or
    /// brings it back.
    public func setKeySetDown(_ down: Bool) { keySetDown = down }

    /// Makes every endpoint (the key set included) answer `status` — a 503 of an outage, a 429 of a provider shedding
    /// load — with `Retry-After: retryAfter` when given; `nil` brings the provider back. Requests still reach the
    /// ``requestLog``, so a test counts what an outage cost the provider.
    public func setOutage(status: Int?, retryAfter: String? = nil) {
        outage = status.map { ($0, retryAfter) }
    }

    /// Sets the lifetimes of what is issued from now on; `nil` leaves one as it is.
    public func setLifetimes(accessToken: TimeInterval? = nil, refreshToken: TimeInterval? = nil,
                             preAuthorization: TimeInterval? = nil) {
        if let accessToken { configuration.accessTokenLifetime = accessToken }
        if let refreshToken { configuration.refreshTokenLifetime = refreshToken }
        if let preAuthorization { configuration.preAuthorizationLifetime = preAuthorization }
    }

    // MARK: Inspection

    /// Consents given (accepted) so far.
    public var consentCount: Int { world.counters.consents }
    /// Refresh grants answered successfully so far.
    public var refreshCount: Int { world.counters.refreshes }
    /// Code exchanges answered successfully so far.
    public var tokenExchangeCount: Int { world.counters.tokenExchanges }
    /// Data sessions opened so far.
    public var sessionCount: Int { world.counters.sessions }

    /// Whether `refreshToken` still refreshes (known, grant not revoked, not expired).
    public func isRefreshTokenUsable(_ refreshToken: String) -> Bool {
        guard let grantID = world.refreshTokens[hash(refreshToken)], let grant = world.grants[grantID] else { return false }
        return !grant.revoked && grant.refreshExpiresAt > clock.now()
    }

    // MARK: Shared helpers

    func hash(_ text: String) -> String { Base64URL.encode(crypto.sha256(Data(text.utf8))) }

    func opaqueToken() throws -> String { Base64URL.encode(try crypto.randomBytes(count: 32)) }

    func nextIdentifier(_ prefix: String) -> String {
        defer { world.nextSerial += 1 }
        return "\(prefix)\(world.nextSerial)"
    }

    func persist() throws(OngoingAccessProviderError) {
        let now = clock.now()
        world.seenNonces = world.seenNonces.filter { $0.value > now }
        world.preAuthorizations = world.preAuthorizations.filter { $0.value.expiresAt > now }
        world.codes = world.codes.filter { $0.value.expiresAt > now }
        world.accessTokens = world.accessTokens.filter { $0.value.expiresAt > now }
        world.sessions = world.sessions.filter { $0.value.expiresAt > now }
        try file?.save(world)
    }
}

/// The provider's in-process transport.
struct OngoingAccessTransport: HTTPTransport {
    let provider: OngoingAccessProvider

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        try await provider.serve(request)
    }
}
