import Foundation
import RegState
import RegStateSimulator

/// Sign in on another device (RFC 8628): the walkthrough's menu entry and the `device-login` command. The code and the
/// page are printed by the event printer (``DeviceCodeText``); on the embedded simulator the next line of input plays
/// the user on the other device (an email approves as that user, `deny` refuses, `expire` lets the code run out).
extension CommandRun {
    /// How a sign-in on another device ended for the command.
    enum DeviceLoginEnd {
        /// Tokens came: G (the profile awaits confirmation).
        case authenticated
        /// It ended without tokens (F, or cancelled to D).
        case ended
        /// The input ended while it waits: the authorization stays pending for the next run.
        case pending
    }

    /// `device-login`: settles, starts (or resumes) a sign-in on another device, waits for it, confirms the profile.
    /// 0 a session is active; 3 the input ended while the sign-in waits (kept for the next run); 1 it ended without
    /// a session.
    func deviceLoginCommand() async -> Int32 {
        let state = await service.start()
        if case .active = state {
            await drain()
            console.message("A session is already active: nothing to sign in. To end it, run: \(options.typed("logout"))")
            return ExitCode.success
        }
        if case .awaitingConfirmation = state {} else {
            switch await deviceLogin() {
            case .authenticated: break
            case .ended: return ExitCode.failure
            case .pending: return ExitCode.registrationRequired
            }
        }
        do {
            try await service.confirmRegistration()
        } catch {
            await reportFailure(error)
            return ExitCode.failure
        }
        await drain()
        return ExitCode.success
    }

    /// The walkthrough's "Sign in on another device".
    func deviceLoginStep() async -> Step {
        switch await deviceLogin() {
        case .authenticated, .ended: .next
        case .pending: .exit(ExitCode.registrationRequired)
        }
    }

    /// Starts or resumes the sign-in, plays the user on the simulator, and waits for the provider's answer.
    func deviceLogin() async -> DeviceLoginEnd {
        let shown: DeviceVerification
        do {
            shown = try await service.beginDeviceRegistration()
        } catch {
            await reportFailure(error)
            return .ended
        }
        await drain()
        if let simulator = environment.simulator {
            guard let answer = await ask("On the other device, sign in as (email), or type deny or expire: ") else {
                return pendingAtEndOfInput(shown)
            }
            do {
                switch answer.lowercased() {
                case "deny": try await simulator.denyDeviceAuthorization(userCode: shown.userCode)
                case "expire": try await simulator.expireDeviceAuthorization(userCode: shown.userCode)
                case "", "wait": return pendingAtEndOfInput(shown)
                default: try await simulator.approveDeviceAuthorization(userCode: shown.userCode, as: answer)
                }
            } catch {
                console.message("The simulated approval failed: \(error.localizedDescription)")
            }
        } else {
            console.message("Waiting for the approval on the other device. If this stops, run the command again "
                            + "before \(EventText.timestamp(shown.expiresAt)) to go on with the same code.")
        }
        do {
            try await service.completeDeviceRegistration()
            await drain()
            return .authenticated
        } catch {
            await reportFailure(error)
            return .ended
        }
    }

    private func pendingAtEndOfInput(_ shown: DeviceVerification) -> DeviceLoginEnd {
        console.message("The sign-in on another device is still pending. To go on with the same code before "
                        + "\(EventText.timestamp(shown.expiresAt)), run: \(options.typed("device-login"))")
        return .pending
    }
}
