import Foundation

/// Why registration or authentication failed: the typed reason of an **Error F**, one case per thing a user or
/// developer would act on differently.
public enum RegistrationFailure: Error, Sendable, Equatable {
    /// The provider's discovery document could not be fetched or did not describe the configured issuer.
    case discoveryFailed(String)
    /// A network condition met on the way (``TransientIssue``), with what happened; its reason code is the issue's,
    /// as a renewal's **E** for the same condition. Nothing was changed: try again.
    case transient(TransientIssue, detail: String)
    /// The provider could not be reached. No longer made (``transient(_:detail:)`` is, with the code the same network
    /// condition has everywhere); kept so that journals written by earlier versions still read.
    case providerUnreachable(String)
    /// The provider refused the pushed authorization request (RFC 9126 §2.3): `error` is its OAuth error code (or
    /// the status of an answer without one), `description` its explanation. The browser was not opened.
    case pushedAuthorizationRefused(error: String, description: String?)
    /// Pushed authorization requests are required (by the configuration or the provider) and cannot be used: the
    /// reason says why (no endpoint in discovery, or switched off). No plain authorization URL is made instead.
    case pushedAuthorizationUnavailable(String)
    /// The callback's `state` did not match the pending request (missing, wrong, or a replay). A social login in
    /// progress is kept for its genuine redirect (``keepsAttempt(of:)``).
    case stateMismatch
    /// A callback arrived with no login pending.
    case noPendingLogin
    /// A second login was started while one was pending; the pending one is discarded.
    case loginAlreadyInProgress
    /// The social login this redirect belongs to was begun too long ago (more than
    /// ``RegStateConfiguration/pendingLoginLifetime``); it was removed. Start again.
    case pendingLoginExpired
    /// A newer login (begun by another process sharing the store) replaced the one this redirect belongs to.
    case pendingLoginSuperseded
    /// The callback was not a redirect this client issued (wrong scheme, host, path, or no `code`).
    case malformedCallback(String)
    /// The callback's RFC 9207 `iss` parameter named another issuer.
    case issuerMismatchInCallback
    /// The provider answered the authorization request with an error (`access_denied`, …) and its description.
    case authorizationDenied(error: String, description: String?)
    /// The token endpoint refused the exchange; `error` is the RFC 6749 code.
    case tokenRequestFailed(error: String, description: String?)
    /// The provider's response could not be understood.
    case malformedResponse(String)
    /// The ID token failed validation (OIDC Core 3.1.3.7); the detail names the check.
    case invalidIDToken(String)
    /// The login asked for `max_age` and the provider's ID token does not say when the user signed in (no
    /// `auth_time`, OIDC Core §3.1.3.7 item 12): the provider ignored the request. Nothing was stored.
    case authTimeMissing
    /// The login asked for `max_age` and the user last signed in at `authenticatedAt` (`auth_time`), longer ago than
    /// it allows: the provider did not ask the user again. Nothing was stored.
    case signInTooOld(authenticatedAt: Date)
    /// The login required one of its `acr_values` and the ID token's `acr` (here; `nil` when absent) is none of
    /// them (OIDC Core §3.1.3.7 item 13). Nothing was stored.
    case acrNotAccepted(String?)
    /// A sign-in that was to confirm the session's user (a step-up) signed in someone else (another subject or
    /// issuer): its tokens were not stored and the session was left as it was. Sign in as the session's user, or log
    /// out first to switch accounts.
    case anotherUser
    /// The one-time code was wrong.
    case wrongCode
    /// A code the user was to use (one emailed, or one shown to approve elsewhere) expired before it was used:
    /// nothing was stored; start again for a new code.
    case codeExpired
    /// The one-time code was already used.
    case codeReused
    /// The one-time code was replaced by a newer one (the user asked for a resend); type the newest code.
    case codeSuperseded
    /// Too many wrong codes for this attempt; the attempt is over and a new code must be requested from **D**.
    case tooManyAttempts
    /// Too many foreign redirects were refused and the login discarded. No longer made (a refused redirect never ends
    /// the login it waits for); kept so that journals written by earlier versions still read.
    case tooManyRefusedRedirects
    /// The provider asked to slow down (HTTP 429); `retryAfter` is its `Retry-After` in seconds, when it sent one.
    case rateLimited(retryAfter: Int?)
    /// The provider does not offer `grant`: its discovery does not list it, or its endpoint is not there (and none is
    /// configured); use another.
    case grantNotOffered(GrantKind)
    /// The email address is not usable.
    case invalidEmail
    /// The backend refused a new device: the user has too many registered devices (`403 TOO_MANY_REGISTERED_DEVICES`).
    case tooManyRegisteredDevices
    /// The backend refused a new security token for this device (`403 MAX_NUMBER_SECURITY_TOKEN`).
    case maxSecurityTokens
    /// The backend failed the registration; the detail is its status or error code.
    case backendFailed(String)
    /// The tokens could not be stored.
    case storage(String)
    /// The platform cannot run this method (for example social login on a non-native platform).
    case unsupported(String)
    /// A DPoP step failed (RFC 9449): DPoP required but not offered, a `Bearer` answer when it was required, the key
    /// could not be made or stored, a refused nonce.
    case dpop(DPoPError)
}

extension RegistrationFailure: LocalizedError {
    /// A sentence a user can act on; never contains a token or code.
    public var errorDescription: String? {
        switch self {
        case .discoveryFailed(let detail): "The sign-in service is misconfigured (\(detail))."
        case .transient(.noInternet, let detail):
            "The sign-in service cannot be reached: no connection (\(detail)). Check the connection and try again."
        case .transient(.ssoUnspecifiedIssue, let detail): "The sign-in service had a problem (\(detail)). Try again."
        case .providerUnreachable(let detail): "The sign-in service cannot be reached (\(detail)). Try again."
        case .pushedAuthorizationRefused(let error, let description):
            "The sign-in service refused the sign-in request (\(error)\(description.map { ": \($0)" } ?? ""))."
        case .pushedAuthorizationUnavailable(let reason): "Sign-in cannot start with this sign-in service (\(reason))."
        case .stateMismatch: "The sign-in response did not match this request. Please start again."
        case .noPendingLogin: "No sign-in is in progress. Please start again."
        case .loginAlreadyInProgress: "A sign-in was already in progress; it was cancelled. Please start again."
        case .pendingLoginExpired: "The sign-in was begun too long ago and has expired. Please start again."
        case .pendingLoginSuperseded: "A newer sign-in replaced this one. Finish the newer one or start again."
        case .malformedCallback(let detail): "The sign-in response could not be read (\(detail))."
        case .issuerMismatchInCallback: "The sign-in response came from another service. Please start again."
        case .authorizationDenied(let error, let description):
            "Sign-in was not completed (\(error)\(description.map { ": \($0)" } ?? ""))."
        case .tokenRequestFailed(let error, let description):
            "The sign-in service refused the request (\(error)\(description.map { ": \($0)" } ?? ""))."
        case .malformedResponse(let detail): "The sign-in service sent an unreadable answer (\(detail))."
        case .invalidIDToken(let detail): "The identity token was rejected (\(detail))."
        case .authTimeMissing:
            "The sign-in service did not say when you signed in, though a recent sign-in was asked for."
        case .signInTooOld(let date):
            "The sign-in service did not ask you to sign in again (last sign-in \(RecordedTime.text(date)))."
        case .acrNotAccepted(let acr):
            "The sign-in was not strong enough (\(acr.map { "\"\($0.prefix(64))\"" } ?? "no authentication class"))."
        case .anotherUser:
            "That sign-in was another account's. Sign in again as the account in use; nothing was changed."
        case .wrongCode: "That code is not right. Check the email and try again."
        case .codeExpired: "That code expired before it was used. Start again for a new one."
        case .codeReused: "That code was already used. Ask for a new one."
        case .codeSuperseded: "That code was replaced by the newer one we sent. Type the newest code."
        case .tooManyAttempts: "Too many wrong codes. Start again to get a new code."
        case .tooManyRefusedRedirects:
            "Too many sign-in responses that did not belong to this sign-in were refused; it was cancelled. Start again."
        case .rateLimited(let seconds):
            "Too many requests for now. Wait \(seconds.map { "\($0) seconds" } ?? "a moment") and try again."
        case .grantNotOffered(let grant): "This sign-in service does not offer \(grant.offering)."
        case .invalidEmail: "That email address cannot be used: check it and type it again: a name, then @, then a domain such as example.com."
        case .tooManyRegisteredDevices: "Too many devices are registered to this account. Remove one and try again."
        case .maxSecurityTokens: "This device has too many open sessions. Sign out elsewhere and try again."
        case .backendFailed(let detail): "Registration could not be completed (\(detail)). Try again."
        case .storage(let detail): "The sign-in could not be saved on this device (\(detail))."
        case .unsupported(let detail): "This sign-in method is not available here (\(detail))."
        case .dpop(let error): error.errorDescription ?? "DPoP failed."
        }
    }
}

extension RegistrationFailure {
    /// Whether an attempt of `grant` in progress survives this failure and waits for the user's next try (a wrong
    /// code, a forged redirect); every other failure ends it in **F** (<doc:LettersAndStateMachine>).
    public func keepsAttempt(of grant: GrantKind) -> Bool {
        grant.survives(self)
    }

    /// A stable, machine-readable code for the reason (for `--json` output, logs and analytics); never personal data.
    public var reasonCode: String {
        if case .transient(let issue, _) = self { return issue.reasonCode }
        return SnakeCase.tag(of: self)
    }
}
