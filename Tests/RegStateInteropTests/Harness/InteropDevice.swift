import Foundation
import RegState
import RegStateTesting
import Testing
import RegStateTestSupport

/// The app's side against one real provider: storage that survives relaunches, a recording transport and a clock.
///
/// The clock is a ``ManualClock`` started at the wall clock's now, so ID tokens the provider just issued validate,
/// and expiry is reached by advancing it rather than by sleeping; the provider does not care whether the access
/// token really expired when it is asked to refresh.
struct InteropDevice {
    let peer: any Peer
    let clock = ManualClock(start: Date(), waitsOnWallTime: true)
    let store = InMemorySecureStore()
    let journal = InMemoryJournal()
    /// The library's real URLSession transport, recorded: what "reaches the provider" from the client's side
    /// (``InteropPeer/refreshTokenLedger()`` is the provider's side of the same story).
    let transport: RecordingTransport
    /// A timeout that replaces the default for every later request, once a test expects the provider to hang.
    private let timeoutOverride = LockedValue<TimeInterval?>(nil)
    /// Run once, as the next refresh grant leaves (``atNextRefreshGrant(_:)``).
    private let beforeRefreshGrant = LockedValue<(@Sendable () -> Void)?>(nil)
    let redirectURI: URL
    let gracePeriod: TimeInterval
    /// DPoP for this device. `.off` unless a test asks: most interop tests reach expiry by advancing the manual
    /// clock, which a proof's `iat` (checked against the provider's real clock) cannot follow. The DPoP tests renew
    /// with ``RegStateService/renewSession()`` on the real clock instead.
    let dpop: DPoPMode
    /// The client to register as; the peer's public client unless a test names another (`swift-test-dpop`).
    let clientID: String
    /// Where the provider sends the browser after an RP-initiated logout (`nil`: none configured).
    let postLogoutRedirect: URL?
    /// Pushed authorization requests (RFC 9126) for this device: the library's default unless a test asks.
    let pushedAuthorization: PushedAuthorizationMode
    /// Extra authorization parameters: the peer's (``Peer/authorizationParameters``) unless a test names others.
    let authorizationParameters: [String: String]

    /// - Parameters:
    ///   - timeout: how long each HTTP request may take (short when the provider will be paused). 30 s, as
    ///     URLSession's own default: a Python provider's first token answers on a loaded 2-core machine have taken
    ///     more than 10 s (idpyoidc, fresh or just restarted).
    ///   - gracePeriod: seconds before expiry at which the library renews (small for 2-second tokens).
    init(peer: any Peer, redirectURI: URL? = nil, timeout: TimeInterval = 30, gracePeriod: TimeInterval = 60,
         dpop: DPoPMode = .off, clientID: String? = nil, postLogoutRedirect: URL? = nil,
         pushedAuthorization: PushedAuthorizationMode = .whenOffered, authorizationParameters: [String: String]? = nil) {
        self.peer = peer
        self.authorizationParameters = authorizationParameters ?? peer.authorizationParameters
        self.pushedAuthorization = pushedAuthorization
        self.postLogoutRedirect = postLogoutRedirect
        self.dpop = dpop
        self.clientID = clientID ?? peer.clientID
        self.redirectURI = redirectURI ?? peer.customSchemeRedirect
        self.gracePeriod = gracePeriod
        let timeoutOverride = timeoutOverride
        let beforeRefreshGrant = beforeRefreshGrant
        transport = RecordingTransport(base: URLSessionTransport(defaultTimeout: timeout)) { request, _, base throws(TransportError) in
            if RecordingTransport.Kind(request) == .grant("refresh_token"),
               let hook = beforeRefreshGrant.withLock({ hook in defer { hook = nil }; return hook }) {
                hook()
            }
            var request = request
            if let timeout = timeoutOverride.withLock({ $0 }) { request.timeout = timeout }
            return try await base.send(request)
        }
    }

    /// Makes every later request give up after `timeout` seconds: set after pausing the provider, so the steps
    /// before the outage run with the ordinary timeout; `nil` once the provider is back, whose first answers (a
    /// restarted Python provider, one catching up on the request it was paused in) can take longer than the fuse.
    func useTimeout(_ timeout: TimeInterval?) {
        timeoutOverride.withLock { $0 = timeout }
    }

    /// Runs `body` once, as the next refresh grant leaves (after the issuer's keys, which a renewal fetches afresh
    /// before its grant): a test pauses the provider there, so that the grant, not the key fetch, meets the outage.
    func atNextRefreshGrant(_ body: @escaping @Sendable () -> Void) {
        beforeRefreshGrant.withLock { $0 = body }
    }

    /// No backend: tokens are confirmed locally (`backendURL: nil`).
    var configuration: RegStateConfiguration {
        var configuration = RegStateConfiguration(
            oidc: OIDCConfiguration(issuer: peer.issuer, clientID: clientID, redirectURI: redirectURI),
            backendURL: nil, gracePeriod: gracePeriod)
        configuration.dpop = dpop
        configuration.oidc.postLogoutRedirectURI = postLogoutRedirect
        configuration.oidc.pushedAuthorization = pushedAuthorization
        configuration.oidc.additionalAuthorizationParameters = authorizationParameters
        return configuration
    }

    /// A service as a fresh app launch builds it: new actor, same store, journal and transport.
    func launch() -> RegStateService {
        RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: store, journal: journal, transport: transport, clock: clock))
    }

    /// A bare OIDC client for the same provider (userinfo, revocation behind the engine's back), on its own transport.
    func oidcClient() -> OIDCClient {
        OIDCClient(configuration: configuration.oidc, transport: URLSessionTransport(defaultTimeout: 10), clock: clock)
    }

    /// The token service reading the same store the engine writes.
    var tokens: TokenService { TokenService(store: store, clock: clock, gracePeriod: gracePeriod) }

    /// Social registration through the library, the user played by the peer's login script: D → G → Active H.
    func register() async throws -> RegStateService {
        let service = launch()
        #expect(await service.start() == .registrationRequired)
        let url = try await service.beginSocialRegistration()
        let callback = try await peer.login(url)
        let profile = try await service.completeSocialRegistration(callback: callback)
        let subject = try await peer.aliceSubject()
        #expect(profile.subject == subject)
        let session = try await service.confirmRegistration()
        #expect(session.activation == .registered)
        return service
    }

    /// The stored refresh token.
    func storedRefreshToken() async throws -> String {
        try #require(await tokens.snapshot()?.refreshToken, "no refresh token stored")
    }
}
