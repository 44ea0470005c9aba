import Foundation
import RegState

/// The walkthrough started again while a social login begun by an earlier run is still waiting for its redirect
/// (the app was killed while the user was in the browser): offer to finish it before the registration menu.
extension CommandRun {
    /// Offers the pending social login, if any: paste the redirect to finish it (on the simulator, an email signs in
    /// with the simulated browser), or `n` to discard it. An expired one is discarded with a sentence.
    ///
    /// - Returns: `nil` when nothing was pending (go on to the menu), otherwise the step to take.
    func offerPendingLogin() async -> Step? {
        guard let pending = await service.pendingSocialLogin() else { return nil }
        let started = EventText.timestamp(pending.startedAt)
        if pending.isExpired {
            await service.discardPendingSocialLogin()
            console.message("The social login begun at \(started) was not finished within "
                + "\(Int(pending.expiresAt.timeIntervalSince(pending.startedAt)) / 60) minutes; it has expired and was discarded.")
            return nil
        }
        console.message("A social login begun at \(started) is waiting for its redirect (until "
            + "\(EventText.timestamp(pending.expiresAt))).")
        var signInPage = pending.authorizationURL
        if pending.isAuthorizationURLExpired {
            // A pushed request_uri (RFC 9126) lives briefly: a dead one is never opened; the login is pushed again.
            do {
                signInPage = try await service.reopenSocialLogin()
                console.message("Its sign-in page (a pushed request) expired at "
                    + "\(pending.authorizationURLExpiresAt.map(EventText.timestamp) ?? started); it was pushed again.")
            } catch {
                await reportFailure(error)
                return .next
            }
        }
        if environment.simulator == nil {
            console.message("Its sign-in page, if the browser was closed:")
            console.message(signInPage.absoluteString)
        }
        let question = environment.simulator == nil
            ? "Paste the full redirect URL to finish it, or n to discard it: "
            : "Paste the full redirect URL (or the email to sign in as) to finish it, or n to discard it: "
        while true {
            guard let answer = await ask(question) else { return .exit(endOfInput()) }
            if answer.lowercased() == "n" {
                await service.discardPendingSocialLogin()
                console.message("The pending social login was discarded.")
                return .next
            }
            let callback: URL
            if let simulator = environment.simulator, answer.contains("@"), URL(string: answer)?.scheme == nil {
                do {
                    callback = try await simulator.authorize(signInPage, as: answer)
                } catch {
                    console.message("The simulated sign-in failed: \(error.localizedDescription)")
                    continue
                }
            } else {
                guard let redirect = URL(string: answer), redirect.scheme != nil else {
                    console.message("That is not a URL: paste the whole address the browser was sent to, or n.")
                    continue
                }
                callback = redirect
            }
            if await completeRedirect(callback) { continue }
            return .next
        }
    }
}
