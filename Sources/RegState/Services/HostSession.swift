import Foundation

/// A session the host app drives (seed 000, ``SessionSource/host``): the app logs in with its own SSO and hands
/// RegState the ID token; RegState validates it (the same rules as registration), exchanges it for the backend
/// security token bound to this installation, stores both and authorizes the backend requests the ``TokenPolicy``
/// lists.
///
/// When the backend answers `401`, the host is told **once** (``HostSessionEvent/tokenExpired``), the other
/// authenticated requests are held, and RegState waits for the host's answer:
/// - ``updateToken(idToken:)``: a new security token; every held request is retried once with it.
/// - ``notifyTokenRenewalTransientIssue(_:)``: held requests fail with ``HostSessionError/offline(_:)``; the session
///   stays, offline, and nothing is deleted.
/// - ``logout(_:)`` with ``HostLogoutReason/ssoDenied``: storage cleared.
///
/// A token renewed for a rejection that is rejected again fails with ``HostSessionError/rejectedAfterRenewal`` and
/// the host is not asked again for that failure until a backoff on the injected clock has passed (30 s, doubling to
/// 15 min), so a backend that keeps rejecting does not cost a renewal per call.
///
/// Call ``updateToken(idToken:)`` as the seed recommends: after a login, at launch when ``isAuthenticated``, and on
/// ``HostSessionEvent/tokenExpired``. An ID token equal to the stored one is ignored while the session is active.
public actor HostSession {
    static let storeKey = "host-session"
    static let firstBackoff: TimeInterval = 30
    static let longestBackoff: TimeInterval = 900

    let provider: OIDCClient
    let backend: any RegistrationBackend
    let dependencies: RegStateDependencies
    let tokens: TokenService
    /// Which requests carry the security token.
    public let policy: TokenPolicy

    /// Where the session stands.
    public internal(set) var phase: HostSessionPhase = .signedOut
    var credentials: HostCredentials?
    /// The issuer and client this session's records are bound to.
    let binding: CredentialBinding
    /// Why the session stored by an earlier launch was not picked up: it belongs to another issuer or client
    /// (issue 14). It is left in the store until ``updateToken(idToken:)`` stores this configuration's session.
    public internal(set) var storedSessionBoundElsewhere: CredentialBindingMismatch?
    var waiters: [Int: CheckedContinuation<String, any Error>] = [:]
    var nextWaiter = 0
    var subscribers: [Int: AsyncStream<HostSessionEvent>.Continuation] = [:]
    var nextSubscriber = 0
    /// A token that was the answer to a rejection and was rejected again, and when the host may be asked again.
    var exhausted: (token: String, until: Date)?
    var backoff: TimeInterval = HostSession.firstBackoff

    /// Creates a host session; a record stored by an earlier launch is picked up (``isAuthenticated``).
    ///
    /// - Parameters:
    ///   - configuration: The provider, the backend URL and ``SessionSource/host``.
    ///   - dependencies: Store, transport, clock, crypto, platform.
    ///   - policy: Which requests carry the security token; by default everything under the backend URL.
    /// - Throws: ``HostSessionError/unexpected(_:)`` when the configuration has no backend.
    public init(configuration: RegStateConfiguration, dependencies: RegStateDependencies, policy: TokenPolicy? = nil)
        throws(HostSessionError)
    {
        if let backend = dependencies.backend {
            self.backend = backend
        } else if let url = configuration.backendURL {
            backend = HTTPRegistrationBackend(baseURL: url, transport: dependencies.transport)
        } else {
            throw .unexpected("host mode needs a backend")
        }
        self.dependencies = dependencies
        provider = OIDCClient(configuration: configuration.oidc, transport: dependencies.transport,
                              crypto: dependencies.crypto, clock: dependencies.clock)
        tokens = TokenService(store: dependencies.store, clock: dependencies.clock, crypto: dependencies.crypto,
                              gracePeriod: configuration.gracePeriod, binding: CredentialBinding(configuration.oidc))
        self.policy = policy ?? TokenPolicy(validatingURLs: configuration.backendURL.map { [$0] } ?? [])
        binding = CredentialBinding(configuration.oidc)
        if let data = try? dependencies.store.data(forKey: Self.storeKey),
           let stored = try? JSONDecoder().decode(HostCredentials.self, from: data) {
            // A session stored for another issuer or client is not picked up, and is left as it is.
            storedSessionBoundElsewhere = binding.mismatch(issuer: stored.issuer, clientID: stored.clientID,
                                                           idToken: stored.idToken)
            if storedSessionBoundElsewhere == nil {
                credentials = stored
                phase = .active
            }
        }
    }

    /// Whether a session is stored (seed 000's `onInitialized(isAuthenticated:)`).
    public var isAuthenticated: Bool { credentials != nil }

    /// How many authenticated requests wait for the host's answer now.
    public var heldRequestCount: Int { waiters.count }

    /// The session's events from now on.
    public func events() -> AsyncStream<HostSessionEvent> {
        let (stream, continuation) = AsyncStream<HostSessionEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.unsubscribe(id) } }
        return stream
    }

    /// The host's new ID token: validated, exchanged for a security token bound to this installation, stored; held
    /// requests resume with it. Ignored when it equals the stored one and the session is active.
    ///
    /// - Throws: ``HostSessionError`` (invalid token, device or token limits, forced logout, offline).
    public func updateToken(idToken: String) async throws(HostSessionError) {
        if phase == .active, credentials?.idToken == idToken { return }
        do throws(OIDCError) {
            _ = try await provider.validateIDToken(idToken, expectedNonce: nil)
        } catch {
            throw Self.failure(error)
        }
        let grant: SecurityTokenGrant
        do throws(BackendError) {
            let installation = try await installation()
            grant = try await backend.securityToken(idToken: idToken, installation: installation)
        } catch {
            if error == .forcedLogout { end(.forcedLogout) }
            throw Self.failure(error)
        }
        let record = HostCredentials(idToken: idToken, securityToken: grant.securityToken,
                                     securityTokenExpiresAt: dependencies.clock.now().addingTimeInterval(grant.expiresIn),
                                     issuer: binding.issuer, clientID: binding.clientID)
        do {
            try dependencies.store.set(try JSONEncoder().encode(record), forKey: Self.storeKey)
        } catch {
            throw .unexpected("the session could not be stored")
        }
        credentials = record
        storedSessionBoundElsewhere = nil
        exhausted = nil
        phase = .active
        publish(.active)
        resumeWaiters(with: .success(grant.securityToken))
    }

    /// The host could not renew: held requests fail with ``HostSessionError/offline(_:)``, the session stays with
    /// its data, and the host is asked again only after the backoff.
    public func notifyTokenRenewalTransientIssue(_ issue: TransientIssue) {
        guard credentials != nil else { return }
        if let token = credentials?.securityToken { holdOff(token) }
        phase = .offline(issue)
        publish(.offline(issue))
        resumeWaiters(with: .failure(HostSessionError.offline(issue)))
    }

    /// Ends the session (seed 000's precedence): a user logout or an SSO denial deletes the installation at the
    /// backend first and so needs a connection; ``HostLogoutReason/allTokensExpiredOffline`` discards the local data
    /// without a call.
    ///
    /// - Throws: ``HostSessionError/logoutNeedsConnection`` when the backend cannot be reached (nothing changed).
    public func logout(_ reason: HostLogoutReason) async throws(HostSessionError) {
        if reason == .userRequested || reason == .ssoDenied, let token = credentials?.securityToken {
            do throws(BackendError) {
                try await backend.deleteInstallation(securityToken: token)
            } catch {
                if case .transport = error { throw .logoutNeedsConnection }
                if error.isTransient { throw .logoutNeedsConnection }
            }
        }
        end(reason)
    }

    // MARK: - Internals

    func installation() async throws(BackendError) -> InstallationInfo {
        let platform = dependencies.platform.platform
        let id: String
        do {
            id = try await tokens.installationID()
        } catch {
            throw .malformedResponse("no installation id")
        }
        return InstallationInfo(installationID: id, platform: platform.type, formFactor: platform.formFactor)
    }

    /// Clears the local record, fails held requests and tells the host.
    func end(_ reason: HostLogoutReason) {
        // Another configuration's stored session is not this session's to end.
        if storedSessionBoundElsewhere == nil { try? dependencies.store.removeValue(forKey: Self.storeKey) }
        credentials = nil
        exhausted = nil
        phase = .signedOut
        publish(.loggedOut(reason))
        resumeWaiters(with: .failure(reason == .forcedLogout ? HostSessionError.forcedLogout : .loggedOut(reason)))
    }

    /// Remembers that `token` must not cause another notice before the backoff has passed; doubles the backoff.
    func holdOff(_ token: String) {
        exhausted = (token, dependencies.clock.now().addingTimeInterval(backoff))
        backoff = min(backoff * 2, Self.longestBackoff)
    }

    func publish(_ event: HostSessionEvent) {
        for subscriber in subscribers.values { subscriber.yield(event) }
    }

    func unsubscribe(_ id: Int) { subscribers[id] = nil }

    static func failure(_ error: OIDCError) -> HostSessionError {
        if case .invalidIDToken(let rule) = error { return .invalidIDToken(rule) }
        return error.isTransient ? .offline(.noInternet) : .unexpected("the provider's keys could not be read")
    }

    static func failure(_ error: BackendError) -> HostSessionError {
        switch error {
        case .invalidIDToken, .unauthorized: .backendRejectedIDToken
        case .tooManyRegisteredDevices: .tooManyRegisteredDevices
        case .maxSecurityTokens: .maxSecurityTokens
        case .forcedLogout: .forcedLogout
        case .transport(let transport): .offline(transport.isTransient ? .noInternet : .ssoUnspecifiedIssue)
        default: error.isTransient ? .offline(.ssoUnspecifiedIssue) : .unexpected("the server refused the exchange")
        }
    }
}
