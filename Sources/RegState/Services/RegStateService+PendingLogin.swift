import Foundation

/// A social login that survives the app being killed while the user is in the browser, and the journal's
/// note of a device clock that is off.
extension RegStateService {
    /// The social login begun earlier (by this process or before a relaunch) and not finished, kept in the secure
    /// store; `nil` when there is none. Also reported once it is too old to finish (``PendingSocialLogin/isExpired``):
    /// its redirect is then refused with ``RegistrationFailure/pendingLoginExpired``.
    ///
    /// An app that is launched again while the user is in the browser can show "finish signing in" instead of the
    /// registration options, and hand the redirect to ``completeSocialRegistration(callback:)`` when it arrives.
    public func pendingSocialLogin() async -> PendingSocialLogin? {
        (try? await runner.tokens.pending(PendingLogin.self))?.summary(lifetime: runner.configuration.pendingLoginLifetime, now: clock.now())
    }

    /// The sign-in page to open for the social login in progress: the pending login's authorization URL while it
    /// still works; when only its pushed `request_uri` expired (RFC 9126, ``PendingSocialLogin/isAuthorizationURLExpired``),
    /// the same login pushed again (a new URL; a redirect for the earlier one still finishes it, since the user may
    /// be signing in on it); when the login itself is too old to finish, or cannot be pushed again, a new login begun
    /// in its place (same `prompt` and requirement). A dead URL is never opened. With no login pending, begins one.
    ///
    /// - Throws: the errors of ``beginSocialRegistration(prompt:)`` when a new login is begun.
    public func reopenSocialLogin() async throws(RegStateServiceError) -> URL {
        let pending = await pendingSocialLogin()
        if let pending, !pending.isExpired, !pending.isAuthorizationURLExpired { return pending.authorizationURL }
        if let pending, !pending.isExpired, let url = await loginGrants.pushLoginAgain() { return url }
        if pending != nil { await discardPendingSocialLogin() }
        return try await beginSocialRegistration(prompt: pending?.prompt, requirement: pending?.requirement)
    }

    /// Forgets the pending social login: the one in progress (as ``retryRegistration()`` does, back to **D**) or the
    /// one kept from before a relaunch. Its redirect is refused afterwards.
    public func discardPendingSocialLogin() async {
        if case .authenticating(.social) = state, (try? await apply(.retryRequested)) != nil { return }
        await loginGrants.discardStoredLogin()
    }

    /// Before a redirect is handed in: takes up a login the store keeps from before a relaunch (journaled as
    /// ``MachineEvent/pendingLoginResumed``) when this process has none in progress; its age is checked with the
    /// redirect. A store that cannot be read now (a locked device) throws ``RegStateServiceError/storage(_:)``:
    /// the login stays, and the redirect can be handed in again once the device is unlocked (read as "none", it
    /// was refused as a stray redirect, `noPendingLogin`, and the sign-in lost).
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
    /// (``ClockOffsetSource/journalThreshold``); the note carries seconds and a source, nothing else.
    func noteClockOffset() async {
        guard let note = runner.provider.clockEstimate.takeJournalNote() else { return }
        _ = await feed(.clockOffsetObserved(seconds: note.seconds, source: note.source))
    }
}
