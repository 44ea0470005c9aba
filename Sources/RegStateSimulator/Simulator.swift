import Foundation
import RegState
import RegStateOngoingAccess

/// An in-process OpenID provider and registration backend that speak HTTP semantics, for tests and the CLI.
///
/// The simulator answers `HTTPRequest` values with `HTTPResponse` values through ``transport``, so RegState's
/// real discovery, PKCE, token, refresh, userinfo, revocation, JWT validation and backend code runs against it
/// unchanged. It signs ID tokens with a real 2048-bit RSA key, rotates refresh tokens and detects their reuse,
/// delivers passwordless codes to an ``inbox(for:)``, and plays the user at the authorization endpoint through
/// ``authorize(_:as:)`` and ``deny(_:)``.
///
/// Knobs (lifetimes, offline, refusal, latency, device limits) change at runtime through the setters. Time comes
/// from the injected clock, so a `ManualClock` expires tokens without sleeping.
///
/// When given a `persistence` directory, the whole world (signing key, users, codes, token families, devices,
/// security tokens, one-time codes, inbox, counters) is loaded from `simulator-world.json` there and saved back
/// atomically after every request that changed it, so separate processes share one world one after the other. Tokens
/// are stored as SHA-256 hashes, never in clear. Processes may use the same directory at the same time: each
/// request reloads the world and saves it while holding a `flock` on `.simulator-world.lock`, as a server's
/// database transaction would, so they see one consistent provider.
public actor Simulator {
    /// The knobs in effect.
    public internal(set) var configuration: SimulatorConfiguration
    /// Every request that reached the simulator, oldest first, as `"METHOD /path"`: never a query, body or header.
    public internal(set) var requestLog: [String] = []

    let clock: any RegStateClock
    var mint: TokenMint
    let file: WorldFile?
    var world: World
    var savedWorld: World?
    /// The defect built into every ID token issued, when a test asked for one.
    var idTokenDefect: IDTokenDefect?
    /// A defect in the ID tokens of refresh answers only (``setRefreshedIDTokenDefect(_:)``).
    var refreshedIDTokenDefect: IDTokenDefect?
    /// Every request that reached the host API's resource endpoint, oldest first (in memory only).
    public internal(set) var resourceRequests: [ResourceRequest] = []
    /// How many Check Registration requests (`GET /v1/check-registration`) reached the backend (in memory only).
    public internal(set) var checkRegistrationCount = 0
    /// Whether the resource endpoint answers `403 FORCED_LOGOUT`.
    var forcesLogoutAtResource = false
    /// Characters added to every pushed `request_uri` (``setPushedRequestURIPadding(_:)``).
    var pushedRequestURIPadding = 0
    /// Whether the resource endpoint takes the backend security token instead of the provider access token.
    var resourceTakesSecurityToken = false
    /// Whether the resource endpoint answers `401` to every token (a backend that keeps rejecting).
    var resourceRejectsEveryToken = false
    /// What sign-in the resources under each path prefix demand (RFC 9470), ``demandSignIn(_:atResourcesUnder:)``.
    var resourceDemands: [String: AuthenticationRequirement] = [:]
    /// Checks DPoP proofs (RFC 9449 §4.3) and remembers their `jti`s.
    let dpopVerifier: DPoPProofVerifier
    /// How many DPoP nonces have been issued; the current one is `sim-nonce-<count>`.
    var dpopNonceCount = 1

    /// Creates a world, or reopens the one saved in `persistence`.
    ///
    /// - Parameters:
    ///   - configuration: The knobs; see ``SimulatorConfiguration``.
    ///   - clock: The source of time for every issue and expiry decision.
    ///   - crypto: SHA-256, random bytes and RSA; the signing key is generated with it when the world is new.
    ///   - persistence: A directory holding the world between processes; `nil` keeps the world in memory.
    /// - Throws: ``SimulatorError`` when the saved world cannot be read or written, or the key cannot be made.
    public init(
        configuration: SimulatorConfiguration = SimulatorConfiguration(),
        clock: any RegStateClock = SystemClock(),
        crypto: any RSASigningProvider = SystemCrypto(),
        persistence: URL? = nil
    ) throws {
        let file = try persistence.map { try WorldFile(directory: $0) }
        let loaded = try file?.load()
        var world: World
        let signingKey: RSAPrivateKey
        let publicKey: RSAPublicKey
        do {
            if let loaded {
                guard let der = Data(base64Encoded: loaded.signingKeyDER) else {
                    throw SimulatorError.worldUnreadable("the signing key is not base64")
                }
                signingKey = RSAPrivateKey(pkcs1DER: der)
                publicKey = try crypto.publicKey(of: signingKey)
                world = loaded
            } else {
                signingKey = try configuration.signingKey ?? crypto.generateRSAPrivateKey(bits: 2048)
                publicKey = try crypto.publicKey(of: signingKey)
                world = World(
                    signingKeyDER: signingKey.pkcs1DER.base64EncodedString(),
                    keyID: TokenMint.keyID(for: publicKey, crypto: crypto))
            }
        } catch let error as SimulatorError {
            throw error
        } catch {
            throw SimulatorError.signingKeyUnusable(String(describing: type(of: error)))
        }
        for user in configuration.users where world.users[user.email] == nil {
            world.users[user.email] = user
        }
        if let file, world != loaded {
            try file.save(world)
        }
        self.configuration = configuration
        self.clock = clock
        dpopVerifier = DPoPProofVerifier(crypto: crypto)
        do {
            self.mint = try TokenMint(crypto: crypto, signingKey: signingKey, publicKey: publicKey, keyID: world.keyID,
                                      algorithm: configuration.idTokenSigningAlgorithm)
        } catch {
            throw SimulatorError.signingKeyUnusable(String(describing: type(of: error)))
        }
        self.file = file
        self.world = world
        self.savedWorld = file == nil ? nil : world
    }

    /// A transport that delivers requests to this simulator: the provider under
    /// ``SimulatorConfiguration/issuer``, the backend under ``SimulatorConfiguration/backendURL``.
    ///
    /// It honours ``SimulatorConfiguration/isOffline`` (throws `TransportError.offline`) and
    /// ``SimulatorConfiguration/latency``; any other host throws `TransportError.connectionFailed`.
    public nonisolated var transport: any HTTPTransport { InProcessTransport(simulator: self) }

    // MARK: - Serving

    /// Answers one request, as the in-process transport delivers it.
    func serve(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        if configuration.isOffline { throw TransportError.offline }
        if configuration.behindCaptivePortal {
            return HTTPResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"],
                                body: Data("<html><body>Accept the terms to use the Wi-Fi.</body></html>".utf8))
        }
        if let redirect = configuration.redirects.first(where: { $0.matches(request.url) }) {
            requestLog.append("\(request.method.rawValue) \(request.url.path) redirected")
            return HTTPResponse(status: redirect.status, headers: ["Location": redirect.to.absoluteString])
        }
        if configuration.redirects.contains(where: { $0.targets(request.url) }) { return redirectTarget(request) }
        guard let route = route(request.url) else {
            throw TransportError.connectionFailed("unknown host \(request.url.host ?? "")")
        }
        while configuration.holdsRequests {
            do { try await Task.sleep(nanoseconds: 5_000_000) } catch { throw TransportError.cancelled }
        }
        if configuration.latency > 0 {
            do {
                try await Task.sleep(nanoseconds: UInt64(configuration.latency * 1_000_000_000))
            } catch {
                throw TransportError.cancelled
            }
            if configuration.isOffline { throw TransportError.offline }
        }
        requestLog.append("\(request.method.rawValue) \(request.url.path.isEmpty ? "/" : request.url.path)")
        // A request that fails answers 500 and changes nothing, like a server whose transaction rolled back: a refresh
        // grant must not retire a refresh token whose successor the client never received.
        // One transaction per request: processes sharing a persisted world see one consistent provider.
        let transaction: FileLock?
        do {
            transaction = try file?.lock()
        } catch {
            return ServerResponse.serverError("The simulator failed: \(error.localizedDescription)")
        }
        // Released on every path, the failed reload's too: a lock left held would block the next request forever.
        defer { transaction?.unlock() }
        do {
            try reloadIfChanged()
        } catch {
            return ServerResponse.serverError("The simulator failed: \(error.localizedDescription)")
        }
        let before = world
        let response: HTTPResponse
        do {
            switch route {
            case .provider(let path): response = try handleProvider(request, path: path)
            case .backend(let path): response = try handleBackend(request, path: path)
            }
            try persistIfChanged()
        } catch {
            world = before
            return ServerResponse.serverError("The simulator failed: \(error.localizedDescription)")
        }
        return stamped(response)
    }

    /// `response` with the `Date` header a real server sends, from the simulator's clock (unless the answer already
    /// has one). A device whose clock differs from the simulator's estimates its offset from it.
    func stamped(_ response: HTTPResponse) -> HTTPResponse {
        guard configuration.sendsDateHeader, response.header("Date") == nil else { return response }
        var stamped = response
        stamped.headers["Date"] = ProviderClockEstimate.httpDate(clock.now())
        return stamped
    }

    /// Which server a URL addresses, and the path under that server's base.
    enum Route: Equatable {
        case provider(String)
        case backend(String)
    }

    func route(_ url: URL) -> Route? {
        if let path = Self.relativePath(of: url, under: configuration.issuer) { return .provider(path) }
        if let path = Self.relativePath(of: url, under: configuration.backendURL) { return .backend(path) }
        return nil
    }

    static func relativePath(of url: URL, under base: URL) -> String? {
        guard url.scheme?.lowercased() == base.scheme?.lowercased(),
              url.host?.lowercased() == base.host?.lowercased(),
              url.port == base.port
        else { return nil }
        var basePath = base.path
        while basePath.hasSuffix("/") { basePath.removeLast() }
        let path = url.path
        guard path.hasPrefix(basePath) else { return nil }
        let rest = String(path.dropFirst(basePath.count))
        if rest.isEmpty { return "/" }
        return rest.hasPrefix("/") ? rest : nil
    }

    /// Takes the world another process saved since this one last read or wrote it.
    func reloadIfChanged() throws {
        guard let file, let loaded = try file.load(), loaded != savedWorld else { return }
        world = loaded
        savedWorld = loaded
    }

    /// Saves the world when it changed since the last save (and drops what has expired for good first).
    func persistIfChanged() throws {
        pruneExpired()
        guard let file, world != savedWorld else { return }
        try file.save(world)
        savedWorld = world
    }

    /// Forgets tokens, codes and backend sessions that have expired for good, so they do not pile up in the world
    /// file. (Users, token families, the inbox and installations are kept: tests and the CLI inspect them.)
    func pruneExpired() {
        let now = clock.now()
        closeExpiredSecurityTokens(now: now)
        world.accessTokens = world.accessTokens.filter { $0.value.expiresAt > now }
        world.codes = world.codes.filter { $0.value.expiresAt > now }
        world.refreshTokens = world.refreshTokens.filter { record in record.value.expiresAt.map { $0 > now } ?? true }
    }

    /// A new identifier, unique within the world.
    func nextIdentifier(_ prefix: String) -> String {
        defer { world.nextSerial += 1 }
        return "\(prefix)\(world.nextSerial)"
    }

    /// The user with `email`, created on first sign-in.
    func signIn(email: String) -> SimulatorUser {
        let normalized = email.lowercased()
        if let user = world.users[normalized] { return user }
        let localPart = normalized.split(separator: "@").first.map(String.init) ?? normalized
        let user = SimulatorUser(email: normalized, name: localPart)
        world.users[normalized] = user
        return user
    }
}
