import Foundation
import RegState

/// The passwordless part of the walkthrough: the email, the simulated inbox line, then codes until one is accepted,
/// with a resend and a cancel.
extension CommandRun {
    /// Passwordless: ask for the email, show the simulated inbox line, read codes. A wrong, expired, reused or
    /// superseded code keeps the attempt (type another, `r` resends, `c` cancels); too many wrong codes end it.
    func passwordlessLogin() async -> Step {
        guard let email = await ask("Email address: ") else { return .exit(endOfInput()) }
        do {
            try await service.beginPasswordlessRegistration(email: email)
        } catch {
            await reportFailure(error)
            switch error {
            case .registration(.grantNotOffered(.passwordless)):
                console.message("This provider offers no emailed codes; choose 1 (social login) instead.")
            case .registration(.invalidEmail):
                console.message(Self.emailHint(email))
            default:
                break
            }
            return .next
        }
        await showInbox(email)
        while true {
            guard let answer = await ask("Code (r to resend, c to cancel): ") else { return .exit(endOfInput()) }
            switch answer.lowercased() {
            case "c":
                try? await service.retryRegistration()
                return .next
            case "r":
                do {
                    try await service.resendPasswordlessCode()
                    await showInbox(email)
                } catch {
                    await reportFailure(error)
                }
            case "q":
                return await quit()
            default:
                do {
                    try await service.completePasswordlessRegistration(code: answer)
                } catch {
                    await reportFailure(error)
                }
            }
            guard case .authenticating = await service.state else { return .next }
        }
    }

    /// The simulated inbox's newest line (on the simulator), or where the code went (a real provider).
    private func showInbox(_ email: String) async {
        await drain()
        if let simulator = environment.simulator {
            if let code = await simulator.latestCode(for: email) {
                console.message("inbox \(EventText.masked(email)): your RegState code is \(code)")
            }
        } else {
            console.message("A one-time code was sent to \(EventText.masked(email)).")
        }
    }
}
