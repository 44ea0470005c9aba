import Foundation

/// A social login that survives the app being killed while the user is in the browser, and the journal's note of a
/// device clock that is off.
extension RegStateService {
    /// The unfinished social login kept in the secure store (also once too old: ``PendingSocialLogin/isExpired``);
    /// `nil` when none. An app relaunched while the user is in the browser can offer "finish signing in".
    public func pendingSocialLogin() async -> PendingSocialLogin? {
        (try? await runner.tokens.pending(PendingLogin.self))?.summary(lifetime: runner.configuration.pendingLoginLifetime, now: clock.now())
    }

    /// The sign-in page to open for the social login in progress, never a dead URL: its own, the same login pushed
    /// again when its `request_uri` expired, or a new login (same `prompt` and requirement) when none is usable.
    /// - Throws: the errors of ``beginSocialRegistration(prompt:requirement:)`` when a new login is begun.
    public func reopenSocialLogin() async throws(RegStateServiceError) -> URL {
        let pending = await pendingSocialLogin()
        if let pending, !pending.isExpired, !pending.isAuthorizationURLExpired { return pending.authorizationURL }
        if let pending, !pending.isExpired, let url = await grants.pushLoginAgain() { return url }
        if pending != nil { await discardPendingSocialLogin() }
        return try await beginSocialRegistration(prompt: pending?.prompt, requirement: pending?.requirement)
    }

    /// Forgets the pending social login (in progress: back to **D**; or kept from before a relaunch).
    public func discardPendingSocialLogin() async {
        if case .authenticating(.social) = state, (try? await apply(.retryRequested)) != nil { return }
        await grants.discardStoredLogin()
    }

    /// Before a redirect is handed in: takes up a login the store keeps from before a relaunch. A store that cannot be
    /// read now throws (read as "none", the redirect would be refused as a stray and the sign-in lost).
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

    /// Journals the clock's offset to the provider when it is new or moved by ``ClockOffsetSource/journalThreshold``.
    func noteClockOffset() async {
        guard let note = runner.provider.clockEstimate.takeJournalNote() else { return }
        _ = await feed(.clockOffsetObserved(seconds: note.seconds, source: note.source))
    }
}
