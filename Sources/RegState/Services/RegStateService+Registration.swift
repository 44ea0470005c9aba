import Foundation

extension RegStateService {
    /// Starts social registration from **D** (or after an error): the authorization URL (PKCE, fresh `state` and
    /// `nonce`) to open in the system browser.
    /// - Parameters:
    ///   - prompt: the provider's login form or account chooser even when the browser is still signed in (the way
    ///     to switch accounts); `nil`: none.
    ///   - requirement: what the sign-in must meet (`max_age`, `acr_values`; `nil`: the configuration's), checked by
    ///     ``completeSocialRegistration(callback:)`` after a relaunch too.
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**); ``RegStateServiceError/rejected(_:)`` when
    ///   registration cannot start in the current state.
    public func beginSocialRegistration(prompt: LoginPrompt? = nil, requirement: AuthenticationRequirement? = nil)
        async throws(RegStateServiceError) -> URL
    {
        let applied = try await apply(.registrationRequested(.social),
                                      carrying: .socialLogin(prompt: prompt, requirement: requirement))
        try Self.throwIfRefused(applied)
        guard let url = applied.authorizationURL else { throw .registration(.noPendingLogin) }
        return url
    }

    /// Completes social registration with the browser's redirect: exchanges the code, validates the ID token, stores
    /// provisional tokens and returns the profile to confirm (**G**); after a relaunch too (``pendingSocialLogin()``).
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**) with the reason;
    ///   ``RegStateServiceError/storage(_:)`` when a kept login cannot be read now (a locked device).
    @discardableResult
    public func completeSocialRegistration(callback: URL) async throws(RegStateServiceError) -> Profile {
        try await resumePendingLoginIfNeeded()
        return try Self.profile(in: try await apply(.credentialsSubmitted, carrying: .callback(callback)))
    }

    /// Starts passwordless registration: the provider emails a one-time code to `email` (again while pending: a
    /// resend).
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**), for example ``RegistrationFailure/invalidEmail`` or
    ///   ``RegistrationFailure/grantNotOffered(_:)``;
    ///   ``RegStateServiceError/rejected(_:)``.
    public func beginPasswordlessRegistration(email: String) async throws(RegStateServiceError) {
        try Self.throwIfRefused(try await apply(.registrationRequested(.passwordless(email: email))))
    }

    /// Sends a new one-time code to the pending passwordless attempt's address (the old one then fails as
    /// ``RegistrationFailure/codeSuperseded``).
    /// - Throws: ``RegStateServiceError/registration(_:)``, ``RegistrationFailure/noPendingLogin`` when none is pending.
    public func resendPasswordlessCode() async throws(RegStateServiceError) {
        guard case .authenticating(.passwordless(let email)) = state else { throw .registration(.noPendingLogin) }
        try await beginPasswordlessRegistration(email: email)
    }

    /// Completes passwordless registration with the code the user typed: the profile to confirm (**G**). A wrong code
    /// keeps the attempt, up to ``RegStateConfiguration/maxCodeAttempts``.
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**) with the reason; the code never appears in it.
    @discardableResult
    public func completePasswordlessRegistration(code: String) async throws(RegStateServiceError) -> Profile {
        try Self.profile(in: try await apply(.credentialsSubmitted, carrying: .code(code)))
    }

    /// Confirm on the confirmation page: registers the installation and profile with the backend and confirms the
    /// tokens (**H**).
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**), the backend's limits included;
    ///   ``RegStateServiceError/rejected(_:)`` outside **G**.
    @discardableResult
    public func confirmRegistration() async throws(RegStateServiceError) -> Session {
        let applied = try await apply(.confirmationRequested)
        if let failure = applied.registrationFailure { throw .registration(failure) }
        for case .registrationConfirmed(let stored) in applied.events { return stored.session(.registered) }
        throw .registration(.noPendingLogin)
    }

    /// Retry on the confirmation page (or cancel a pending login): provisional tokens are cleared, back to **D**.
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

    /// Whether to offer sign-in with an emailed code, from the provider's discovery (cached; nothing journaled).
    public func passwordlessAvailability() async -> PasswordlessAvailability {
        await PasswordlessGrant(provider: runner.provider).availability()
    }
}
