/// The help texts: one for the tool, one per command.
enum Usage {
    /// `regstate --help`; its last line names the tool as it was started (`invocation`).
    static func tool(_ invocation: Invocation) -> String {
        """
        regstate: register a user and keep their session, on the embedded simulator or a real OpenID provider.

        Usage: regstate [COMMAND] [OPTIONS]

        Commands:
          walkthrough   Register step by step: social login or email code, then confirm (the default)
          status        Settle and print the state with its letter
          events        Print the event journal, redacted
          logout        Revoke the refresh token (where the provider can) and clear local data (online only)
          clear-state   Wipe local state: tokens, profile, installation id, journal (and deregister this
                        installation at the backend when online)
          devices [remove ID]
                        List the devices registered to this account, or remove one
          ongoing-access authorize|fetch
                        Consent once, then restore access and read data without the user
          call [PATH]   An authorized request to the backend (default /v1/resource/tickets); prints its status
          update-token  Host mode: hand in an ID token read from standard input (as a host app would)
          notify-transient no-internet|sso-unspecified
                        Host mode: the host could not renew now; the session stays, offline
          device-login  Sign in on another device: show a code and a page, wait for the approval there
          step-up       Sign in again, more recently or more strongly, when an API asked for it

        \(options)
        Exit status: 0 the command did what it was asked, 3 no session to act on (registration required, D),
        1 an error or a refusal that changed nothing, 2 bad usage. By command:
        \(ExitStatusTable.lines.joined(separator: "\n"))

        For one command: \(invocation.typed("COMMAND --help"))

        """
    }

    /// The options every command accepts.
    static let options = """
        Options:
          --store DIR              Local state (default $REGSTATE_HOME, else ~/.local/state/regstate);
                                   the simulator's world lives in DIR/simulator, shared by later runs
          --json                   Each lettered event as a JSON line on stdout; all other text on stderr
          --check-registration     After the launch, ask the backend to confirm the registration and refresh
                                   the profile; the walkthrough always does
          --platform native|web    web is a non-native platform: Active A (default native)
          --issuer URL             Use a real OpenID Connect provider instead of the simulator
          --client-id ID           The client registered at --issuer (required with it)
          --redirect-uri URI       The registered redirect URI (default com.example.app:/callback)
          --loopback               Catch the redirect on 127.0.0.1 (port and path from --redirect-uri)
          --scope SCOPES           Scopes to ask for (default openid profile email offline_access; openid
                                   always; optional ones the provider's discovery does not list are left out)
          --backend URL            A real registration backend (with --issuer; skipped when absent)
          --device-authorization-endpoint URL
                                   Where the provider serves sign-in on another device (RFC 8628), when its
                                   discovery does not say (with --issuer)
          --host-mode              The host app renews the session (its own login): it pushes ID tokens with
                                   update-token; implied by update-token and notify-transient
          --dpop off|auto|required Bind the tokens to this installation's DPoP key (RFC 9449): auto when the
                                   provider offers it (default), required fails against one that does not
          --par off|auto|required  Push the authorization request (RFC 9126 PAR): auto when the provider
                                   offers it (default), required fails against one that does not
          --sim-access-ttl SECONDS Simulator: access token lifetime for tokens issued in this run
          --sim-refresh-ttl SECONDS
                                   Simulator: refresh token lifetime for tokens issued in this run
          --sim-reuse-grace SECONDS
                                   Simulator: a just-retired refresh token is accepted this long (default 0)
          --sim-dpop off|allowed|required
                                   Simulator: DPoP as the provider and backend enforce it (default off)
          --sim-dpop-nonce         Simulator: DPoP proofs must carry the server's nonce
          --sim-par off|offered|required
                                   Simulator: pushed authorization requests (default off)
          --sim-par-ttl SECONDS    Simulator: a pushed request_uri lives this long (default 60)
          --sim-answer-delay SECONDS
                                   Simulator: answers are held this long after the request was applied
          --sim-advance SECONDS    Simulator: this run's clock is this many seconds ahead (tokens expire)
          --sim-time EPOCH         Simulator: this run's clock stands at this many seconds since 1970
          --sim-offline            Simulator: every request fails as offline
          --sim-deny-refresh       Simulator: refresh grants are refused (invalid_grant)
          --sim-max-devices N      Simulator: devices one user may register
          --sim-api-rejects        Simulator: the backend API answers 401 to every token
          --sim-api-max-age SECONDS, --sim-api-acr "A B"
                                   Simulator: the backend API demands a sign-in that recent or of one of those
                                   classes (RFC 9470); call then sends the provider's access token
          --sim-step-up honours|ignores|omits-auth-time
                                   Simulator: how the provider treats max_age and acr_values (default honours)
          --max-age SECONDS, --acr-values "A B"
                                   step-up: what the new sign-in must meet
          --sim-api-forces-logout  Simulator: the backend API answers 403 FORCED_LOGOUT
          --sim-keychain           Simulator: secrets kept as Apple's Keychain keeps them (one item each in
                                   DIR/keychain) behind the App Group lock DIR/.lock, as on Apple platforms
          -h, --help               Show help

        """

    /// `regstate COMMAND --help`.
    static func text(for command: Command) -> String {
        let summary = switch command {
        case .walkthrough:
            """
            Usage: regstate [walkthrough] [OPTIONS]

            Settles, then walks through registration: at D choose 1 Social, 2 Email, 3 Social with another account
            (the provider asks for the user again) or 4 Sign in on another device (a code to approve on a phone or a
            computer; see device-login), at G choose 1 Confirm or 2 Retry (q quits). Email is offered only
            when the provider's discovery does not rule it out; otherwise a line says why it is missing. Answers are
            read one per line from standard input (a terminal, a pipe or a script).
            On the simulator, social login asks which email to sign in as; email login prints the simulated inbox
            line and asks for the code. With --issuer, social login prints the authorization URL on its own line
            and reads the redirect URL from the next line (or catches it with --loopback). When confirmation fails
            with "Too many devices", it lists the account's devices and offers to remove one; then sign in again.
            """
        case .status:
            """
            Usage: regstate status [OPTIONS]

            Settles (renewing an expired token if needed) and prints the state with its letter.
            """
        case .events:
            """
            Usage: regstate events [OPTIONS]

            Prints the event journal, oldest first: sequence, time, event and details. Email addresses are masked;
            the journal never holds tokens. With --json, one JSON object per line.
            """
        case .logout:
            """
            Usage: regstate logout [OPTIONS]

            Revokes the refresh token at the provider and clears local credentials, and says which happened: revoked,
            not revoked because the provider offers no revocation (the token stays valid there until it expires), or
            revocation refused, or nothing to revoke (no refresh token was stored). After a sign-in in the browser it
            also ends the provider's browser session where the provider offers that (on the simulator it opens the
            end-session URL itself; with --issuer it prints the URL to open). When the provider cannot be reached,
            nothing changes. With --json, a line {"result":"logout","loggedOut":…,
            "revocation":"revoked|unsupported|refused|nothingToRevoke|unreachable","endSession"?:"ended|failed|URL"},
            or {"result":"logout","loggedOut":false,"reason":"no_session|failed"}.
            """
        case .clearState:
            """
            Usage: regstate clear-state [OPTIONS]

            Asks the backend to forget this installation (with the stored security token, freeing its device slot),
            then wipes this device's local state (tokens, profile, installation id, journal) and says what it removed
            and what happened at the backend: removed, nothing to remove, or why the installation is still
            registered there (offline, refused). Local state is cleared in every case; nothing is revoked at the
            provider (logout does that). The simulator's world (the server side) stays. With --json, a line
            {"result":"clear-state","removed":[…],"installation":"deregistered|noBackend|notRegistered|offline|refused"}.
            """
        case .devices:
            """
            Usage: regstate devices [remove ID] [OPTIONS]

            Lists the installations registered with the backend for this account, oldest first, marking this one
            (what to remove when registration fails with "Too many devices"). 'devices remove ID' removes one (the word
            after 'remove' is the ID, even when it starts with '-'); its security tokens end with it. Authenticated with this device's security token (the walkthrough, after a
            registration refused at the device limit, uses the user's ID token and offers the removal itself). With --json, a line
            {"result":"devices","devices":[{"id","platform","formFactor","registeredAt","current"}]} or
            {"result":"devices","removed":ID}, or {"result":"devices","error":REASON}.
            """
        case .ongoingAccess:
            OngoingAccessCommand.usage
        case .call:
            """
            Usage: regstate call [PATH] [OPTIONS]

            Settles, then sends an authorized GET to the backend at PATH (default /v1/resource/tickets) with the
            backend security token, and prints the status. A 401 renews the security token once and retries once
            (self mode: exchanging the stored ID token, renewing the provider tokens first if it expired; host mode:
            the host is told, and since this run cannot answer for it the call fails as offline). A second 401 fails
            with rejectedAfterRenewal, and a 401 of that token before its hold has passed with rejectionHeld (nothing
            renewed); 403 FORCED_LOGOUT ends the session. A 401 that asks for a new sign-in (RFC 9470
            insufficient_user_authentication) renews nothing: it prints what the API asked for and the step-up
            command that meets it. With --json, a line {"result":"call","path":…,"status":…} or
            {"result":"call","path":…,"error":…} (stepUpRequired with max_age and acr_values).
            """
        case .updateToken:
            """
            Usage: regstate update-token [OPTIONS] < ID_TOKEN

            Host mode: reads one ID token from standard input, as a host app pushes it after its own login or when
            told the security token expired; validates it by the registration rules, exchanges it at the backend for
            a security token and prints the state (Active H from D, Active C when renewing). The same ID token again
            is ignored while the session is active. The token is never printed or journaled.
            """
        case .deviceLogin:
            """
            Usage: regstate device-login [OPTIONS]

            Sign in on another device (the device authorization grant, RFC 8628), for a terminal without a browser:
            prints a code and the page where to type it (and the page with the code filled in, when the provider
            gives one), then waits, polling no faster than the provider allows, until the user approves there; then
            confirms the profile (Active H). Denied or expired: Error F with its reason. A run that stops while the
            user approves goes on with the same code when run again, until the code expires. With --json the code
            and the pages are the members of the {"event":"signInOnAnotherDevice"} line, and the last line is
            {"result":"device-login","signedIn":true|false,"reason"?,"expiresAt"?}: reason is the F's reason code,
            device_authorization_pending (the input ended; run again before expiresAt), session_already_active,
            cancelled, not_allowed_now, store_unavailable, transport_transient or failed. On the embedded simulator the
            next input line plays the other device: an email approves as that user, deny refuses, expire lets the
            code run out. The device code itself is never printed.
            """
        case .stepUp:
            """
            Usage: regstate step-up [--max-age SECONDS] [--acr-values "A B"] [OPTIONS]

            Step-up (OpenID Connect max_age and acr_values; RFC 9470): the signed-in user signs in again, within
            --max-age seconds and with one of --acr-values (what `call` printed when the API asked for it). On the
            embedded simulator the next input line signs in as that email (a password typed now); with a real provider, open the printed URL and paste the redirect (or catch it
            with --loopback). The new sign-in must be the same user: another account is refused and the session is
            left as it was. A redirect that is not this step-up's is refused and it keeps waiting. Then the new tokens
            replace the session's (Active C) and it prints when the user signed in and the acr. With --json, a line
            {"result":"step-up","signed_in_at"?,"acr"?} or {"result":"step-up","error":REASON}.
            """
        case .notifyTransient:
            """
            Usage: regstate notify-transient no-internet|sso-unspecified [OPTIONS]

            Host mode: the host could not renew for a transient reason. Error E (recoverable), the session stays
            active and offline with all its data.
            """
        }
        return summary + "\n" + ExitStatusTable.line(for: command) + "\n\n" + options
    }
}
