import Foundation

extension RegStateService {
    /// Check Registration: asks the backend to check the registration with the stored access token (it asks the
    /// provider's userinfo with it) and refreshes the stored profile from the claims it picked up, when their `sub`
    /// is the stored ID token's. Only a Bearer token is sent, only to the configured backend. Nothing is journaled or
    /// logged about the profile.
    ///
    /// - Returns: whether the backend holds the registration, and the profile as now stored.
    /// - Throws: ``RegStateServiceError/registrationCheck(_:)`` (``RegistrationCheckError/subjectMismatch`` when the
    ///   profile is another user's: nothing changes); ``RegStateServiceError/noSession``;
    ///   ``RegStateServiceError/backend(_:)`` when the backend refused or could not be reached, and
    ///   ``BackendError/rateLimited(retryAfter:)`` at once, sending nothing, while the backend's `Retry-After` (or the
    ///   backoff after a failed security-token exchange) holds.
    public func checkRegistration() async throws(RegStateServiceError) -> RegistrationCheck {
        guard case .active(let session) = state, session.activation != .nonNative, !session.isHostDriven,
              let profile = session.profile else { throw .noSession }
        guard let backend = runner.backend else { throw .registrationCheck(.noBackend) }
        guard let snapshot = await runner.tokens.snapshot(), snapshot.session?.profile.subject == profile.subject else {
            throw .noSession
        }
        guard !snapshot.isDPoPBound else { throw .registrationCheck(.senderConstrainedToken) }
        guard snapshot.isUsable else { throw .registrationCheck(.accessTokenExpired) }
        // The backend's hold (its `Retry-After`, or a failed exchange's backoff): nothing is sent before it has passed.
        let now = clock.now()
        if case .held(let until) = runner.tokens.holdPolicy.decide(snapshot.securityTokenBackoff, at: now) {
            throw .backend(.rateLimited(retryAfter: Int(until.timeIntervalSince(now).rounded(.up))))
        }
        let status: RegistrationStatus
        do {
            status = try await backend.checkRegistration(accessToken: snapshot.accessToken)
        } catch {
            // The backend asked to wait (429, or 503 with `Retry-After`): every backend call of this install waits.
            if let retryAfter = error.retryAfter {
                try? await runner.tokens.recordTransientFailure(.securityToken, issue: TransientIssue(error),
                                                                       retryAfter: retryAfter)
            }
            throw .backend(error)
        }
        guard let picked = status.profile else { throw .backend(.malformedResponse("the check has no profile")) }
        // The stored ID token's `sub` (validated when it was stored) is the one identity that counts.
        let subject = snapshot.idToken.flatMap { try? JSONWebToken(compact: $0).subject } ?? profile.subject
        guard picked.subject == subject, subject == profile.subject else {
            logger.log(.warning, "check registration: the backend's profile is another subject's; nothing changed")
            throw .registrationCheck(.subjectMismatch)
        }
        let refreshed = Profile(subject: picked.subject, issuer: profile.issuer, email: picked.email ?? profile.email,
                                emailVerified: picked.email == nil || picked.email == profile.email ? profile.emailVerified : false,
                                name: picked.name ?? profile.name, picture: profile.picture)
        let written: Bool?
        do {
            written = try await runner.tokens.withExclusiveAccess { () async throws(StoreError) in
                try await runner.tokens.refreshProfile(refreshed)
            }
        } catch {
            throw .storage(error)
        }
        // `nil`: the stored credentials changed meanwhile (logout, another user): nothing is written.
        guard let changed = written else { throw .noSession }
        return RegistrationCheck(registered: status.registered, profile: refreshed, profileChanged: changed)
    }

    /// Whether this launch runs Check Registration: a session settled online, a backend, not turned off.
    var checksRegistrationNow: Bool {
        guard runner.backend != nil, runner.configuration.checksRegistrationAtLaunch != false,
              runner.configuration.sessionSource == .selfRenewing || runner.configuration.checksRegistrationAtLaunch == true,
              case .active(let session) = state, session.connectivity == .online, session.activation != .nonNative,
              !session.isHostDriven, !session.renewalPending
        else { return false }
        return true
    }

    /// The launch's Check Registration, its failure logged.
    func checkRegistrationResult() async -> Result<RegistrationCheck, RegStateServiceError> {
        do {
            return .success(try await checkRegistration())
        } catch {
            logger.log(.info, "check registration: \(error.errorDescription ?? "failed")")
            return .failure(error)
        }
    }
}
