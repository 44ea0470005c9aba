import Foundation

extension RegStateService {
    /// Starts social registration from **D** (or after an error): discovers the provider and returns the
    /// authorization URL (PKCE S256, fresh `state` and `nonce`) for the app to open in the system browser.
    ///
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**) when the provider cannot be used; ``RegStateServiceError/rejected(_:)`` when registration
    ///   cannot start in the current state (a session is active, say).
    public func beginSocialRegistration() async throws(RegStateServiceError) -> URL {
        try await beginSocialRegistration(prompt: nil)
    }

    /// Starts social registration like ``beginSocialRegistration()``, asking the provider to show its login form
    /// (``LoginPrompt/login``) or account chooser (``LoginPrompt/selectAccount``) even when the browser is still
    /// signed in: the way to switch accounts. A configuration-wide prompt goes in
    /// ``OIDCConfiguration/additionalAuthorizationParameters`` (`"prompt"`) instead.
    ///
    /// - Throws: the same errors as ``beginSocialRegistration()``.
    public func beginSocialRegistration(prompt: LoginPrompt?) async throws(RegStateServiceError) -> URL {
        try await beginSocialRegistration(prompt: prompt, requirement: nil)
    }

    /// Starts social registration like ``beginSocialRegistration(prompt:)``, asking the provider for a sign-in that
    /// meets `requirement`: at most `max_age` seconds old (`auth_time` required in the ID token) and, when
    /// ``AuthenticationRequirement/acrRequired``, of one of its `acr_values`. `nil` uses the configuration's
    /// (``OIDCConfiguration/authenticationRequirement``). The requirement is kept with the pending login, so a
    /// redirect taken after a relaunch is checked against it too.
    ///
    /// - Throws: the same errors as ``beginSocialRegistration()``; ``completeSocialRegistration(callback:)`` throws
    ///   ``RegistrationFailure/authTimeMissing``, ``RegistrationFailure/signInTooOld(authenticatedAt:)`` or
    ///   ``RegistrationFailure/acrNotAccepted(_:)`` when the provider's ID token does not meet it.
    public func beginSocialRegistration(prompt: LoginPrompt?, requirement: AuthenticationRequirement?)
        async throws(RegStateServiceError) -> URL
    {
        let applied = try await apply(.registrationRequested(.social),
                                      carrying: .socialLogin(prompt: prompt, requirement: requirement))
        try Self.throwIfRefused(applied)
        guard let url = applied.authorizationURL else { throw .registration(.noPendingLogin) }
        return url
    }

    /// Completes social registration with the redirect the browser was sent to: checks it, exchanges the code,
    /// validates the ID token, stores provisional tokens and returns the profile to confirm (**G**).
    ///
    /// The login the redirect answers is kept in the secure store, so this also works after the app was killed while
    /// the user was in the browser: a freshly started service (in **D**) takes the stored login up again
    /// (``pendingSocialLogin()``). Each login takes one redirect: the same redirect again is refused.
    ///
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**) with the reason: a wrong or missing state, an `error=` redirect, an invalid
    ///   ID token, no login pending (a replayed redirect), a login begun too long ago
    ///   (``RegistrationFailure/pendingLoginExpired``), …; ``RegStateServiceError/storage(_:)`` when a login kept from
    ///   before a relaunch cannot be read now (a locked device: nothing changed, hand the redirect in again later).
    @discardableResult
    public func completeSocialRegistration(callback: URL) async throws(RegStateServiceError) -> Profile {
        try await resumePendingLoginIfNeeded()
        let applied = try await apply(.credentialsSubmitted, carrying: .callback(callback))
        return try Self.profile(in: applied)
    }

    /// Starts passwordless registration: asks the provider to email a one-time code to `email`.
    ///
    /// Called again with the same address while the attempt is pending, it is a resend (see
    /// ``resendPasswordlessCode()``).
    ///
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**), for example ``RegistrationFailure/invalidEmail``,
    ///   ``RegistrationFailure/grantNotOffered(_:)`` or ``RegistrationFailure/rateLimited(retryAfter:)``;
    ///   ``RegStateServiceError/rejected(_:)``.
    public func beginPasswordlessRegistration(email: String) async throws(RegStateServiceError) {
        let applied = try await apply(.registrationRequested(.passwordless(email: email)))
        try Self.throwIfRefused(applied)
    }

    /// Sends a new one-time code to the address of the pending passwordless attempt; the new code supersedes the
    /// old one (which then fails as ``RegistrationFailure/codeSuperseded``) and the wrong-code count starts again.
    ///
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**) ``RegistrationFailure/rateLimited(retryAfter:)`` when the provider asks to
    ///   wait (the attempt goes on); ``RegStateServiceError/registration(_:)`` ``RegistrationFailure/noPendingLogin`` when no
    ///   passwordless attempt is pending.
    public func resendPasswordlessCode() async throws(RegStateServiceError) {
        guard case .authenticating(.passwordless(let email)) = state else {
            throw .registration(.noPendingLogin)
        }
        let applied = try await apply(.registrationRequested(.passwordless(email: email)))
        try Self.throwIfRefused(applied)
    }

    /// Completes passwordless registration with the code the user typed: verifies it, validates the ID token, stores
    /// provisional tokens and returns the profile to confirm (**G**).
    ///
    /// A wrong, expired, reused or superseded code throws its own reason and keeps the attempt (type another code or
    /// call ``resendPasswordlessCode()``); after ``RegStateConfiguration/maxCodeAttempts`` wrong codes (or when the
    /// provider burns the code) the attempt ends in **F** ``RegistrationFailure/tooManyAttempts``.
    ///
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**) with the reason; the code itself never appears in it.
    @discardableResult
    public func completePasswordlessRegistration(code: String) async throws(RegStateServiceError) -> Profile {
        let applied = try await apply(.credentialsSubmitted, carrying: .code(code))
        return try Self.profile(in: applied)
    }

    /// Confirm on the confirmation page: registers the installation and profile with the backend and confirms the
    /// tokens (**H**).
    ///
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**), including the backend's device and token limits; ``RegStateServiceError/rejected(_:)``
    ///   outside **G**.
    @discardableResult
    public func confirmRegistration() async throws(RegStateServiceError) -> Session {
        let applied = try await apply(.confirmationRequested)
        if let failure = applied.registrationFailure { throw .registration(failure) }
        for case .registrationConfirmed(let stored) in applied.events { return stored.session(.registered) }
        throw .registration(.noPendingLogin)
    }

    /// Retry on the confirmation page (or cancel a pending login): provisional tokens are cleared, back to **D**.
    ///
    /// - Throws: ``RegStateServiceError/rejected(_:)`` when there is nothing to retry.
    public func retryRegistration() async throws(RegStateServiceError) {
        try await apply(.retryRequested)
    }

    /// A refused registration start, thrown: a failure event, or a start the machine refused itself (a login already
    /// pending), which lands in F without one.
    static func throwIfRefused(_ applied: Applied) throws(RegStateServiceError) {
        if let failure = applied.refusedStart { throw .registration(failure) }
    }

    /// The profile a submission stored, or the failure an effect reported, thrown.
    static func profile(in applied: Applied) throws(RegStateServiceError) -> Profile {
        if let failure = applied.registrationFailure { throw .registration(failure) }
        for case .authenticated(let stored) in applied.events { return stored.profile }
        // The submission applied to no pending login: the machine emitted F without changing state.
        throw .registration(.noPendingLogin)
    }
}
