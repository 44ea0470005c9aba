import Foundation

/// Check Registration's I/O (``RegStateService/checkRegistration()``): the backend's hold, the check with the stored
/// access token, and the profile it picked up, written under the store's lock when its `sub` is the ID token's.
struct RegistrationChecker: Sendable {
    /// The backend, the token service and the clock the check uses.
    let runner: EffectRunner

    /// Checks the registration of the active session whose profile is `profile`.
    func check(_ profile: Profile) async throws(RegStateServiceError) -> RegistrationCheck {
        guard let backend = runner.backend else { throw .registrationCheck(.noBackend) }
        guard let snapshot = await runner.tokens.snapshot(), snapshot.session?.profile.subject == profile.subject else {
            throw .noSession
        }
        guard !snapshot.isDPoPBound else { throw .registrationCheck(.senderConstrainedToken) }
        guard snapshot.isUsable else { throw .registrationCheck(.accessTokenExpired) }
        // The backend's hold (its `Retry-After`, or a failed exchange's backoff): nothing is sent before it has passed.
        let now = runner.dependencies.clock.now()
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
            runner.logger.log(.warning, "check registration: the backend's profile is another subject's; nothing changed")
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
}
