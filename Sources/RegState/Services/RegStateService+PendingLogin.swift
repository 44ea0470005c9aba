import Foundation

/// A social login that survives the app being killed while the user is in the browser (issue 20), and the journal's
/// note of a device clock that is off.
extension RegStateService {
    /// The social login begun earlier (by this process or before a relaunch) and not finished, kept in the secure
    /// store; `nil` when there is none. Also reported once it is too old to finish (``PendingSocialLogin/isExpired``):
    /// its redirect is then refused with ``RegistrationFailure/pendingLoginExpired``.
    ///
    /// An app that is launched again while the user is in the browser can show "finish signing in" instead of the
    /// registration options, and hand the redirect to ``completeSocialRegistration(callback:)`` when it arrives.
    public func pendingSocialLogin() async -> PendingSocialLogin? {
        await runner.storedPendingLogin()?.summary(lifetime: runner.configuration.pendingLoginLifetime, now: clock.now())
    }

    /// Forgets the pending social login: the one in progress (as ``retryRegistration()`` does, back to **D**) or the
    /// one kept from before a relaunch. Its redirect is refused afterwards.
    public func discardPendingSocialLogin() async {
        if case .authenticating(.social) = state, (try? await apply(.retryRequested)) != nil { return }
        await runner.discardPendingLogin()
    }

    /// Before a redirect is handed in: when this process has no login in progress but the secure store keeps one
    /// begun before a relaunch, takes it up again (journaled as ``MachineEvent/pendingLoginResumed``), so that the
    /// redirect completes it. Whether it is still fresh enough is checked with the redirect.
    func resumePendingLoginIfNeeded() async throws(TransitionRejection) {
        switch state {
        case .registrationRequired, .failed: break
        case .unsettled, .authenticating, .awaitingConfirmation, .active: return
        }
        guard await runner.storedPendingLogin() != nil else { return }
        try await apply(.pendingLoginResumed)
    }

    /// Journals the device clock's offset to the provider when it is new or moved significantly
    /// (``ClockOffsetSource/journalThreshold``); the note carries seconds and a source, nothing else.
    func noteClockOffset() async {
        guard let note = runner.provider.clockEstimate.takeJournalNote() else { return }
        _ = await feed(.clockOffsetObserved(seconds: note.seconds, source: note.source))
    }
}
