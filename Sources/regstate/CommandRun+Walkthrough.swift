import Foundation
import RegState
import RegStateLoopback
import RegStateSimulator

/// `walkthrough`: settle, then the registration menu (D) and the confirmation menu (G) until a session is active.
extension CommandRun {
    /// What the walkthrough does after one menu answer.
    enum Step {
        /// Show the menu for the new state.
        case next
        /// Stop with this exit status.
        case exit(Int32)
    }

    /// Walks the user through registration; the exit status follows the state it ends in.
    func walkthrough() async -> Int32 {
        if environment.simulator != nil {
            console.message("Using the embedded simulator (no network); its world lives in \(options.storePath)/simulator.")
        } else if environment.backendSkipped {
            console.message("No --backend given: the backend steps are skipped and the tokens are confirmed locally.")
        }
        var state = await service.start()
        if state == .registrationRequired || state.letter == "F", let step = await offerPendingLogin() {
            if case .exit(let status) = step { return status }
            state = await service.state
        }
        // A sign-in on another device left pending by an earlier run goes on, with the same code.
        if state == .registrationRequired || state.letter == "F", await service.pendingDeviceRegistration() != nil {
            console.message("A sign-in on another device is pending from an earlier run: going on with it.")
            if case .exit(let status) = await deviceLoginStep() { return status }
            state = await service.state
        }
        while true {
            await drain()
            let step: Step
            switch state {
            case .active:
                console.message("Session active. To inspect it later, run: \(options.typed("status"))")
                return ExitCode.success
            case .registrationRequired, .failed:
                step = await registrationMenu()
            case .awaitingConfirmation:
                step = await confirmationMenu()
            case .authenticating(.device):
                // Asked for again (the pending one is taken up): the provider's answer decides.
                step = await deviceLoginStep()
            case .authenticating:
                // A login left pending (an abandoned redirect): cancel it and offer the menu again.
                do {
                    try await service.retryRegistration()
                    step = .next
                } catch {
                    step = .exit(notSettled(state))
                }
            case .unsettled:
                step = .exit(notSettled(state))
            }
            if case .exit(let status) = step { return status }
            state = await service.state
        }
    }

    /// D (or after an error): 1 Social, 2 Email, 3 Social with another account (`prompt=login`), q Quit. Email is
    /// offered only when the provider's discovery does not rule it out; otherwise a sentence says why it is missing
    /// (the other numbers stay, so scripted answers keep their meaning).
    private func registrationMenu() async -> Step {
        let passwordless = await service.passwordlessAvailability()
        var choices = ["1"]
        var menu = "Register:\n  1  Social login\n"
        if passwordless.mayOffer {
            menu += "  2  Email (one-time code)\n"
            choices.append("2")
        }
        console.message(menu + "  3  Social login, use another account\n  4  Sign in on another device\n  q  Quit")
        if let reason = passwordless.reason { console.message("Email (one-time code) is not offered: \(reason)") }
        switch await choose(from: choices + ["3", "4", "q"]) {
        case "1": return await socialLogin()
        case "2": return await passwordlessLogin()
        case "3": return await socialLogin(prompt: .login)
        case "4": return await deviceLoginStep()
        case "q": return await quit()
        default: return .exit(endOfInput())
        }
    }

    /// G: 1 Confirm, 2 Retry, q Quit.
    private func confirmationMenu() async -> Step {
        console.message("Confirm this profile?\n  1  Confirm\n  2  Retry (back to the registration options)\n  q  Quit")
        switch await choose(from: ["1", "2", "q"]) {
        case "1":
            do {
                try await service.confirmRegistration()
            } catch .registration(.tooManyRegisteredDevices) {
                await drain()
                return await deviceLimitMenu()
            } catch {
                await reportFailure(error)
            }
            return .next
        case "2":
            try? await service.retryRegistration()
            return .next
        case "q": return await quit()
        default: return .exit(endOfInput())
        }
    }

    /// Social login: on the simulator, sign in as an email; with a real provider, the browser round trip.
    /// With `prompt` (`login` for "use another account"), the provider asks for the user even when the browser is
    /// still signed in there.
    private func socialLogin(prompt: LoginPrompt? = nil) async -> Step {
        let url: URL
        do {
            url = try await service.beginSocialRegistration(prompt: prompt)
        } catch {
            await reportFailure(error)
            return .next
        }
        await drain()
        var shown = false
        while true {
            let callback: URL
            if let simulator = environment.simulator {
                guard let email = await ask("Sign in as (email): ") else { return .exit(endOfInput()) }
                if EmailAddress.problem(email) != nil {
                    console.message("The simulated sign-in needs an email address. " + Self.emailHint(email))
                    try? await service.retryRegistration()
                    return .next
                }
                do {
                    callback = try await simulator.authorize(url, as: email)
                } catch {
                    console.message("The simulated sign-in failed: \(error.localizedDescription)")
                    try? await service.retryRegistration()
                    return .next
                }
            } else {
                do {
                    guard let redirect = try await browserRedirect(for: url, showing: !shown) else {
                        return .exit(endOfInput())
                    }
                    callback = redirect
                    shown = true
                } catch {
                    // No redirect reached the loopback listener: cancel the pending login and offer the menu again.
                    console.message("No redirect: \(error.errorDescription ?? "the listener failed").")
                    environment.loopback?.close()
                    try? await service.retryRegistration()
                    return .next
                }
            }
            // A refused redirect (a forged one) leaves the login waiting, and the listener listening; once the login is
            // over, nothing listens on its port.
            guard await completeRedirect(callback) else {
                environment.loopback?.close()
                return .next
            }
        }
    }

    /// Hands `callback` to the engine; `true` when it was refused as not this login's and the login still waits for
    /// its genuine redirect (a forged link does not end a sign-in), `false` when the login is over (done,
    /// failed, or discarded after too many refused redirects).
    func completeRedirect(_ callback: URL) async -> Bool {
        do {
            try await service.completeSocialRegistration(callback: callback)
            return false
        } catch .registration(let failure) where failure.keepsAttempt(of: .authorizationCode) {
            await drain()
            console.message("That redirect does not belong to this sign-in (\(failure.reasonCode)); it was refused and "
                            + "nothing was sent. The sign-in is still waiting for its own redirect.")
            return true
        } catch {
            await reportFailure(error)
            return false
        }
    }

    /// Shows the authorization URL and returns the redirect: caught on the loopback, or read from the next line;
    /// `nil` when the input ends.
    ///
    /// - Throws: ``LoopbackListenerError`` when no redirect reaches the loopback listener in time.
    func browserRedirect(for url: URL, showing: Bool = true) async throws(LoopbackListenerError) -> URL? {
        if showing {
            console.message("Open this URL in a browser and sign in:")
            console.message(url.absoluteString)
        }
        if let slot = environment.loopback {
            let listener = try slot.listener()
            if showing { console.message("Waiting for the redirect on \(listener.redirectURI.absoluteString) ...") }
            return try await loopbackRedirect(listener)
        }
        while true {
            guard let line = await ask("Paste the full redirect URL: ") else { return nil }
            if let redirect = URL(string: line), redirect.scheme != nil { return redirect }
            console.message("That is not a URL: paste the whole address the browser was sent to, starting with its scheme.")
        }
    }

    /// The redirect caught by `listener` within ten minutes. A pushed sign-in page (RFC 9126) dies after its
    /// `expires_in`: when it does before the redirect came, the login is pushed again and the new URL shown, and the
    /// wait goes on (a redirect for the earlier page still finishes the login). Pushes at most once a second.
    ///
    /// - Throws: ``LoopbackListenerError`` when no redirect arrives in time, or the login cannot be pushed again.
    private func loopbackRedirect(_ listener: LoopbackRedirectListener) async throws(LoopbackListenerError) -> URL {
        let clock = SystemClock()
        let deadline = clock.now().addingTimeInterval(600)
        while true {
            let pageDies = await service.pendingSocialLogin()?.authorizationURLExpiresAt
            let until = min(deadline, pageDies.map { max($0, clock.now().addingTimeInterval(1)) } ?? deadline)
            do {
                return try await listener.waitForRedirect(timeout: until.timeIntervalSince(clock.now()))
            } catch .timedOut where until < deadline {
                do {
                    let page = try await service.reopenSocialLogin()
                    console.message("The sign-in page (a pushed request) expired at "
                        + "\(pageDies.map(EventText.timestamp) ?? "its deadline"); it was pushed again. Open this URL in a "
                        + "browser and sign in (a page already open still works):")
                    console.message(page.absoluteString)
                } catch {
                    await reportFailure(error)
                    throw .timedOut
                }
            }
        }
    }

    /// Reads answers until one of `choices` (or the end of input: `nil`).
    func choose(from choices: [String]) async -> String? {
        while true {
            guard let answer = await ask("Choose \(choices.joined(separator: ", ")): ") else { return nil }
            if choices.contains(answer.lowercased()) { return answer.lowercased() }
            console.message("Please answer \(choices.joined(separator: ", ")).")
        }
    }

    /// Asks after the events so far are printed, so the question follows them.
    func ask(_ question: String) async -> String? {
        await drain()
        return await console.ask(question)
    }

    /// Errors already appear as lettered events (F); anything else is said here.
    /// Why `email` was refused and what to do: the reason (never the address itself) and the menu choice to retry.
    static func emailHint(_ email: String) -> String {
        let reason = EmailAddress.problem(email.trimmingCharacters(in: .whitespacesAndNewlines))
        return "That email address cannot be used\(reason.map { ": \($0)" } ?? " (the provider refused it)")."
            + " Choose the same option again and type a whole address: a name, then @, then a domain such as example.com."
    }

    func reportFailure(_ error: RegStateServiceError) async {
        await drain()
        // A lettered failure is already on screen as its event.
        if error.lettered != nil { return }
        console.message("regstate: \(error.localizedDescription)")
    }

    func quit() async -> Step {
        let state = await service.state
        console.message("Stopped at \(EventText.human(state))")
        return .exit(ExitCode.forState(state))
    }

    private func notSettled(_ state: RegState) -> Int32 {
        console.message("regstate: the engine did not settle (\(state.caseName)).")
        return ExitCode.failure
    }

    func endOfInput() -> Int32 {
        console.message("regstate: the input ended before the walkthrough finished. Answer every question (one per line),"
                        + " or run it again: \(options.typed("walkthrough"))")
        return ExitCode.failure
    }
}
