import Foundation

/// A social login that survives the app being killed while the user is in the browser, and the journal's note of a
/// device clock that is off.
extension RegStateService {
    /// The social login begun earlier (here or before a relaunch) and not finished, kept in the secure store; `nil`
    /// when there is none. Reported also once too old to finish (``PendingSocialLogin/isExpired``): its redirect is
    /// then refused with ``RegistrationFailure/pendingLoginExpired``. An app launched again while the user is in the
    /// browser can show "finish signing in" and hand the redirect to ``completeSocialRegistration(callback:)``.
    public func pendingSocialLogin() async -> PendingSocialLogin? {
        (try? await runner.tokens.pending(PendingLogin.self))?.summary(lifetime: runner.configuration.pendingLoginLifetime, now: clock.now())
    }

    /// The sign-in page to open for the social login in progress: its authorization URL while it works; when only its
    /// pushed `request_uri` expired (RFC 9126), the same login pushed again (a redirect for the earlier URL still
    /// finishes it); when the login is too old or cannot be pushed again, a new one (same `prompt` and requirement).
    /// With no login pending, begins one. A dead URL is never opened.
    ///
    /// - Throws: the errors of ``beginSocialRegistration(prompt:)`` when a new login is begun.
    public func reopenSocialLogin() async throws(RegStateServiceError) -> URL {
        let pending = await pendingSocialLogin()
        if let pending, !pending.isExpired, !pending.isAuthorizationURLExpired { return pending.authorizationURL }
        if let pending, !pending.isExpired, let url = await grants.pushLoginAgain() { return url }
        if pending != nil { await discardPendingSocialLogin() }
        return try await beginSocialRegistration(prompt: pending?.prompt, requirement: pending?.requirement)
    }

    /// Forgets the pending social login: the one in progress (as ``retryRegistration()`` does, back to **D**) or the
    /// one kept from before a relaunch. Its redirect is refused afterwards.
    public func discardPendingSocialLogin() async {
        if case .authenticating(.social) = state, (try? await apply(.retryRequested)) != nil { return }
        await grants.discardStoredLogin()
    }

    /// Before a redirect is handed in: takes up a login the store keeps from before a relaunch
    /// (``MachineEvent/pendingLoginResumed``) when none is in progress. A store that cannot be read now throws
    /// ``RegStateServiceError/storage(_:)``: the login stays for the redirect to be handed in again (read as "none",
    /// the redirect would be refused as a stray and the sign-in lost).
    func resumePendingLoginIfNeeded() async throws(RegStateServiceError) {
        switch state {
        case .registrationRequired, .failed: break
        case .unsettled, .authenticating, .awaitingConfirmation, .active: return
        }
        let stored: PendingLogin?
        do {
            stored = try await runner.tokens.pending(PendingLogin.self)
        } catch {
            throw .storage(error)
        }
        guard stored != nil else { return }
        try await apply(.pendingLoginResumed)
    }

    /// Journals the device clock's offset to the provider when it is new or moved significantly
    /// (``ClockOffsetSource/journalThreshold``).
    func noteClockOffset() async {
        guard let note = runner.provider.clockEstimate.takeJournalNote() else { return }
        _ = await feed(.clockOffsetObserved(seconds: note.seconds, source: note.source))
    }
}
