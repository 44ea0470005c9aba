import Foundation

/// The authorization code grant with PKCE (RFC 7636), pushed when the provider offers PAR (RFC 9126): the social
/// login in the system browser; what one unit holds: `docs/Internals-Grants.md`.
struct AuthorizationCodeGrant: Sendable {
    /// The registration steps every grant shares (the new registration's DPoP key, the tokens' checks and store).
    let runner: EffectRunner

    /// Whether the login waits on after `failure`: a redirect that is not its own (wrong or missing `state`, another
    /// issuer's `iss`, not this client's redirect) was refused before anything was taken.
    static func survives(_ failure: RegistrationFailure) -> Bool {
        switch failure {
        case .stateMismatch, .issuerMismatchInCallback, .malformedCallback: true
        default: false
        }
    }

    private var provider: OIDCClient { runner.provider }
    private var tokens: TokenService { runner.tokens }
    private var configuration: RegStateConfiguration { runner.configuration }
    private var logger: any RegStateLogger { runner.logger }
    private var redemption: AuthorizationCodeRedemption<PendingLogin> { AuthorizationCodeRedemption(runner: runner) }

    /// A new login (PKCE verifier, state, nonce) and its authorization URL, or why none can be made; kept in the store
    /// (under its lock) so its redirect is taken after a kill, in memory only when the store refuses (logged).
    /// `requirement`: what its sign-in must meet; `nil`: ``OIDCConfiguration/authenticationRequirement``.
    func begin(prompt: LoginPrompt? = nil, requirement: AuthenticationRequirement? = nil) async
        -> Result<PendingLogin, RegistrationFailure>
    {
        guard runner.isNative else { return .failure(.unsupported("social login needs a native platform")) }
        let login: PendingLogin
        let requirement = requirement ?? configuration.oidc.authenticationRequirement
        do {
            let key = try await LoginTokens(runner: runner).keyForNewRegistration()
            let request = try await provider.makeAuthorizationRequest(dpopKey: key, prompt: prompt, requirement: requirement)
            let binding = CredentialBinding(configuration.oidc)
            login = PendingLogin(request: request, prompt: prompt?.rawValue, requirement: requirement.isEmpty ? nil : requirement,
                                 dpopKeyThumbprint: key?.thumbprint, issuer: binding.issuer, clientID: binding.clientID)
        } catch {
            return .failure(RegistrationFailure(error))
        }
        do {
            try await tokens.withExclusiveAccess { () async throws(StoreError) in try await tokens.savePending(login) }
        } catch {
            logger.log(.warning, "the login in progress is not kept across a relaunch: \(error.localizedDescription)")
        }
        return .success(login)
    }

    /// The login in progress (`remembered`, or after a relaunch the stored one) with its authorization request pushed
    /// again (RFC 9126) because its `request_uri` expired: same `state`, `nonce`, PKCE and DPoP key, so a redirect for
    /// the earlier URL still finishes it; the new URL is kept in the store when the login is still the stored one.
    func pushAgain(_ remembered: PendingLogin?) async -> Result<PendingLogin, RegistrationFailure> {
        var stored: PendingLogin? = nil
        if remembered == nil { stored = (try? await tokens.pending(PendingLogin.self)) }
        guard var login = remembered ?? stored else { return .failure(.noPendingLogin) }
        do throws(RegistrationFailure) {
            let key = try LoginTokens(runner: runner).registrationKey()
            // The key the login's tokens are to be bound to must still be the installation's (as at the exchange).
            if let bound = login.dpopKeyThumbprint, key?.thumbprint != bound { return .failure(.pendingLoginSuperseded) }
            let request = login.request
            login.request = try await RegistrationFailure.catching { () async throws(OIDCError) in
                try await provider.pushAgain(request, dpopKey: login.dpopKeyThumbprint == nil ? nil : key,
                                             prompt: login.prompt.flatMap(LoginPrompt.init),
                                             requirement: login.requirement ?? .none)
            }
        } catch {
            return .failure(error)
        }
        let again = login
        do {
            try await tokens.withExclusiveAccess { () async throws(StoreError) in
                // Only a login still stored (not taken by its redirect, not superseded meanwhile) is rewritten.
                if (try? await tokens.pending(PendingLogin.self))?.request.state == again.request.state {
                    try await tokens.savePending(again)
                }
            }
        } catch {
            logger.log(.warning, "the login's new sign-in page is not kept across a relaunch: \(error.localizedDescription)")
        }
        return .success(again)
    }

    /// Removes the stored pending login: the one with `state` when given, otherwise whichever is stored (a cancel,
    /// a failure, another grant begun in its place). The shell passes the state of its own login only: a
    /// stored login it does not hold is another process's (or was already taken).
    func discard(state: String? = nil) async {
        await tokens.withdrawPending(PendingLogin.self, id: state, logger: logger)
    }

    /// Checks `callback` against the login it answers (`remembered`, or after a relaunch the stored one), redeems its
    /// code (``AuthorizationCodeRedemption``) and stores the validated tokens as provisional; `nil` when the user
    /// moved on (`stillWanted`). A redirect that is not the login's takes nothing; a superseded login is refused.
    func exchange(_ callback: URL, remembered: PendingLogin?,
                                   stillWanted: @Sendable () async -> Bool) async -> MachineEvent? {
        do {
            // First, whether the redirect belongs to the login at all: one that does not is refused and takes nothing.
            try await refuseForeignRedirect(callback, remembered: remembered)
            let (taken, superseding) = try await redemption.take(id: remembered?.request.state)
            guard let login = remembered ?? taken else { return .registrationFailed(.noPendingLogin) }
            // Compared as a record keeps the time (seconds since 1970): a login begun at the same instant and read back
            // from the store is not older by the last bit the round trip loses.
            let begun = Date(timeIntervalSince1970: login.createdAt.timeIntervalSince1970)
            if let superseding, superseding.createdAt >= begun {
                return .registrationFailed(.pendingLoginSuperseded)
            }
            let tokens = LoginTokens(runner: runner)
            let (response, key) = try await redemption.exchange(callback, for: login, key: tokens.registrationKey)
            return await tokens.authenticate(with: response, nonce: login.request.nonce,
                                             requirement: login.requirement ?? .none, type: .social, proofKey: key,
                                             stillWanted: stillWanted)
        } catch {
            return .registrationFailed(error)
        }
    }

    /// A redirect that does not match the login it would complete (``RegistrationFailure/keepsAttempt(of:)``) is
    /// refused before anything is taken, sent or written; the login stays for its genuine redirect, however many such
    /// redirects come (a web page can aim any number of them at a loopback port or a custom scheme: none may end the
    /// sign-in). Returns when the redirect belongs to the login or carries the provider's error answer for it.
    private func refuseForeignRedirect(_ callback: URL, remembered: PendingLogin?) async throws(RegistrationFailure) {
        var login = remembered
        // A store that cannot be read now (a locked device) is not "no login": read as none, the redirect went on to
        // the exchange unchecked, which took the stored login and lost it to a forged redirect.
        if login == nil { login = try await redemption.stored() }
        guard let login else { return }
        do {
            _ = try await provider.authorizationCode(from: callback, for: login.request)
        } catch {
            // The provider's own error answer, with the login's state, ends the login after the take.
            if case .authorizationDenied = error { return }
            // Not checked (the provider's metadata could not be read, whatever the reason): refused as it stands, and
            // the login is left in the store untouched. Taking it first, as the exchange does, lost it to a redirect
            // nobody had checked.
            guard Self.survives(error) else { throw error }
            logger.log(.warning, "a redirect that is not this login's was refused (\(error.reasonCode)); the login waits for its own")
            throw error
        }
    }
}
