import Foundation
import RegState
import RegStateSimulator

/// Sign in on another device (RFC 8628): the walkthrough's menu entry and the `device-login` command. The code and the
/// page are printed by the event printer (``DeviceCodeText``); on the embedded simulator the next line of input plays
/// the user on the other device (an email approves as that user, `deny` refuses, `expire` lets the code run out).
/// With `--json` every ending of the command is one last line, `{"result":"device-login","signedIn":…,"reason":…}`
/// (``deviceLoginResult(signedIn:reason:expiresAt:)``).
extension CommandRun {
    /// How a sign-in on another device ended for the command.
    enum DeviceLoginEnd {
        /// Tokens came: G (the profile awaits confirmation).
        case authenticated
        /// It ended without tokens (F, or cancelled to D), for the reason given (a reason code).
        case ended(reason: String)
        /// The input ended while it waits: the authorization stays pending for the next run, until it expires.
        case pending(DeviceVerification)
    }

    /// `device-login`: settles, starts (or resumes) a sign-in on another device, waits for it, confirms the profile.
    /// 0 a session is active; 3 the input ended while the sign-in waits (kept for the next run); 1 it ended without
    /// a session.
    func deviceLoginCommand() async -> Int32 {
        let state = await service.start()
        if case .active = state {
            await drain()
            console.message("A session is already active: nothing to sign in. To end it, run: \(options.typed("logout"))")
            deviceLoginResult(signedIn: true, reason: "session_already_active")
            return ExitCode.success
        }
        if case .awaitingConfirmation = state {} else {
            switch await deviceLogin() {
            case .authenticated: break
            case .ended(let reason):
                deviceLoginResult(signedIn: false, reason: reason)
                return ExitCode.failure
            case .pending(let shown):
                deviceLoginResult(signedIn: false, reason: "device_authorization_pending", expiresAt: shown.expiresAt)
                return ExitCode.registrationRequired
            }
        }
        do {
            try await service.confirmRegistration()
        } catch {
            await reportFailure(error)
            deviceLoginResult(signedIn: false, reason: Self.reasonCode(error))
            return ExitCode.failure
        }
        await drain()
        deviceLoginResult(signedIn: true, reason: nil)
        return ExitCode.success
    }

    /// With `--json`, the command's last line: whether a session is active, and why not (or why nothing was done):
    /// the lettered failure's reason code, `device_authorization_pending` (with `expiresAt`: run again before it),
    /// `session_already_active`, or the refusal's code (``reasonCode(_:)``).
    func deviceLoginResult(signedIn: Bool, reason: String?, expiresAt: Date? = nil) {
        guard options.json else { return }
        var line: [String: JSONValue] = ["result": "device-login", "signedIn": .bool(signedIn)]
        if let reason { line["reason"] = .string(reason) }
        if let expiresAt { line["expiresAt"] = .string(EventText.timestamp(expiresAt)) }
        console.jsonLine(.object(line))
    }

    /// The reason code of a sign-in that ended with `error`: a lettered failure's own code, else the kind of refusal.
    static func reasonCode(_ error: RegStateServiceError) -> String {
        if let lettered = error.lettered { return lettered.reasonCode }
        return switch error {
        case .cancelled: "cancelled"
        case .rejected: "not_allowed_now"
        case .storage: "store_unavailable"
        case .transport(let error) where error.isTransient: "transport_transient"
        default: "failed"
        }
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
            return .ended(reason: Self.reasonCode(error))
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
            return .ended(reason: Self.reasonCode(error))
        }
    }

    private func pendingAtEndOfInput(_ shown: DeviceVerification) -> DeviceLoginEnd {
        console.message("The sign-in on another device is still pending. To go on with the same code before "
                        + "\(EventText.timestamp(shown.expiresAt)), run: \(options.typed("device-login"))")
        return .pending(shown)
    }
}
