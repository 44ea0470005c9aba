import Foundation

/// Step-up: the signed-in user signs in again, more recently or more strongly, while the session stays usable
/// (<doc:StepUp>).
extension RegStateService {
    /// Starts a step-up login that must meet `requirement`: a ``StepUpChallenge/requirement``, or one of the app's
    /// (before a payment, say, without waiting for the API). Returns the authorization URL to open (a pending one is
    /// replaced).
    /// - Throws: ``RegStateServiceError/noSession`` without an active session RegState renews;
    ///   ``RegStateServiceError/registration(_:)`` when the provider cannot be used or the store refuses.
    public func beginStepUp(requirement: AuthenticationRequirement) async throws(RegStateServiceError) -> URL {
        guard case .active(let session) = state, session.activation != .nonNative, !session.isHostDriven else {
            throw .noSession
        }
        switch await StepUpGrant(runner: runner).begin(requirement) {
        case .success(let pending): return pending.request.url
        case .failure(.unsupported): throw .noSession
        case .failure(let failure): throw .registration(failure)
        }
    }

    /// Finishes the pending step-up with the browser's redirect: the new ID token must meet the requirement and name
    /// the session's user; the session's tokens are then replaced in one write (**C**). Returns the new sign-in's
    /// assurance. A failure leaves the session as it was.
    /// - Throws: ``RegStateServiceError/registration(_:)`` (``RegistrationFailure/anotherUser``, a check of
    ///   the requirement, the redirect's); ``RegStateServiceError/noSession`` without an active session.
    @discardableResult
    public func completeStepUp(callback: URL) async throws(RegStateServiceError) -> SignInAssurance {
        guard case .active = state else { throw .noSession }
        switch await StepUpGrant(runner: runner).complete(callback) {
        case .failure(let failure): throw .registration(failure)
        case .success(let stored):
            if let summary = stored.summary { _ = await feed(.renewalSucceeded(summary)) }
            return SignInAssurance(idToken: stored.idToken) ?? SignInAssurance(authenticatedAt: nil, acr: nil)
        }
    }

    /// Forgets the pending step-up: its redirect is refused afterwards; the session is untouched.
    public func cancelStepUp() async {
        await StepUpGrant(runner: runner).discard()
    }

    /// What the pending step-up asks for, `nil` when none is pending (or the store cannot be read now).
    public func pendingStepUp() async -> AuthenticationRequirement? {
        (try? await runner.tokens.pending(PendingStepUp.self))?.requirement
    }
}
