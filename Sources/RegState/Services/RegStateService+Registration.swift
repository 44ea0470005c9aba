import Foundation

extension RegStateService {
    /// Starts social registration from **D** (or after an error): returns the authorization URL (PKCE S256, fresh
    /// `state` and `nonce`) for the app to open in the system browser.
    ///
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**) when the provider cannot be used;
    ///   ``RegStateServiceError/rejected(_:)`` when registration cannot start in the current state.
    public func beginSocialRegistration() async throws(RegStateServiceError) -> URL {
        try await beginSocialRegistration(prompt: nil, requirement: nil)
    }

    /// Starts social registration asking the provider to show its login form (``LoginPrompt/login``) or account
    /// chooser (``LoginPrompt/selectAccount``) even when the browser is still signed in: the way to switch accounts.
    ///
    /// - Throws: the same errors as ``beginSocialRegistration()``.
    public func beginSocialRegistration(prompt: LoginPrompt?) async throws(RegStateServiceError) -> URL {
        try await beginSocialRegistration(prompt: prompt, requirement: nil)
    }

    /// Starts social registration asking for a sign-in that meets `requirement` (`max_age`, `acr_values`; `nil`: the
    /// configuration's). It is kept with the pending login, so a redirect taken after a relaunch is checked too.
    ///
    /// - Throws: the same errors as ``beginSocialRegistration()``; ``completeSocialRegistration(callback:)`` throws
    ///   ``RegistrationFailure/authTimeMissing``, ``RegistrationFailure/signInTooOld(authenticatedAt:)`` or
    ///   ``RegistrationFailure/acrNotAccepted(_:)`` when the provider's ID token does not meet it.
    public func beginSocialRegistration(prompt: LoginPrompt?, requirement: AuthenticationRequirement?)
        async throws(RegStateServiceError) -> URL
    {
        let input: SecretInput? = requirement == nil
            ? prompt.map(SecretInput.prompt) : .socialLogin(prompt: prompt, requirement: requirement)
        let applied = try await apply(.registrationRequested(.social), carrying: input)
        try Self.throwIfRefused(applied)
        guard let url = applied.authorizationURL else { throw .registration(.noPendingLogin) }
        return url
    }

    /// Completes social registration with the redirect the browser was sent to: checks it, exchanges the code,
    /// validates the ID token, stores provisional tokens and returns the profile to confirm (**G**). After a relaunch
    /// the login kept in the secure store is taken up (``pendingSocialLogin()``). Each login takes one redirect.
    ///
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**) with the reason (a wrong state, an `error=`
    ///   redirect, an invalid ID token, no login pending, ``RegistrationFailure/pendingLoginExpired``, …);
    ///   ``RegStateServiceError/storage(_:)`` when a kept login cannot be read now (a locked device).
    @discardableResult
    public func completeSocialRegistration(callback: URL) async throws(RegStateServiceError) -> Profile {
        try await resumePendingLoginIfNeeded()
        return try Self.profile(in: try await apply(.credentialsSubmitted, carrying: .callback(callback)))
    }

    /// Starts passwordless registration: asks the provider to email a one-time code to `email`; again with the same
    /// address while the attempt is pending, a resend.
    ///
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**), for example ``RegistrationFailure/invalidEmail``,
    ///   ``RegistrationFailure/passwordlessNotOffered`` or ``RegistrationFailure/rateLimited(retryAfter:)``;
    ///   ``RegStateServiceError/rejected(_:)``.
    public func beginPasswordlessRegistration(email: String) async throws(RegStateServiceError) {
        try Self.throwIfRefused(try await apply(.registrationRequested(.passwordless(email: email))))
    }

    /// Sends a new one-time code to the pending passwordless attempt's address; the old code then fails as
    /// ``RegistrationFailure/codeSuperseded`` and the wrong-code count starts again.
    ///
    /// - Throws: ``RegStateServiceError/registration(_:)``: ``RegistrationFailure/rateLimited(retryAfter:)`` (the
    ///   attempt goes on), ``RegistrationFailure/noPendingLogin`` when no passwordless attempt is pending.
    public func resendPasswordlessCode() async throws(RegStateServiceError) {
        guard case .authenticating(.passwordless(let email)) = state else { throw .registration(.noPendingLogin) }
        try await beginPasswordlessRegistration(email: email)
    }

    /// Completes passwordless registration with the code the user typed: verifies it, validates the ID token, stores
    /// provisional tokens and returns the profile to confirm (**G**). A wrong code keeps the attempt; after
    /// ``RegStateConfiguration/maxCodeAttempts`` wrong codes it ends in **F** ``RegistrationFailure/tooManyAttempts``.
    ///
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**) with the reason; the code never appears in it.
    @discardableResult
    public func completePasswordlessRegistration(code: String) async throws(RegStateServiceError) -> Profile {
        try Self.profile(in: try await apply(.credentialsSubmitted, carrying: .code(code)))
    }

    /// Confirm on the confirmation page: registers the installation and profile with the backend and confirms the
    /// tokens (**H**).
    ///
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**), including the backend's device and token limits;
    ///   ``RegStateServiceError/rejected(_:)`` outside **G**.
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

    /// A refused registration start, thrown: a failure event, or a start the machine refused itself.
    static func throwIfRefused(_ applied: Applied) throws(RegStateServiceError) {
        if let failure = applied.refusedStart { throw .registration(failure) }
    }

    /// The profile a submission stored, or its failure, thrown (no pending login: **F** without a state change).
    static func profile(in applied: Applied) throws(RegStateServiceError) -> Profile {
        if let failure = applied.registrationFailure { throw .registration(failure) }
        for case .authenticated(let stored) in applied.events { return stored.profile }
        throw .registration(.noPendingLogin)
    }

    /// Whether to offer sign-in with an emailed code: asks the provider's discovery (read once and cached; no state
    /// changes, nothing journaled). Show the email option only when ``PasswordlessAvailability/mayOffer`` is true, and
    /// say ``PasswordlessAvailability/reason`` otherwise.
    public func passwordlessAvailability() async -> PasswordlessAvailability {
        await PasswordlessGrant(provider: runner.provider).availability()
    }
}
