import Foundation
import RegState

/// Step-up (RFC 9470): what `call` prints when the API asks for a new sign-in, and the `step-up` command that signs
/// the same user in again to meet it.
extension CommandRun {
    /// `call`'s answer to a challenge: what the API asked for and the command that steps up. With `--json`,
    /// `{"result":"call","path":…,"error":"stepUpRequired","max_age"?,"acr_values"?}`.
    func printStepUpAsked(_ challenge: StepUpChallenge, path: String) {
        console.message("The API asks for a new sign-in (\(Self.asked(challenge.requirement))): nothing was renewed.")
        console.message("To sign in again and meet it, run: \(options.typed(Self.stepUpArguments(challenge.requirement)))")
        guard options.json else { return }
        var line: [String: JSONValue] = ["result": "call", "path": .string(path), "error": "stepUpRequired"]
        if let maxAge = challenge.requirement.maxAge { line["max_age"] = .number(Double(maxAge)) }
        if !challenge.requirement.acrValues.isEmpty {
            line["acr_values"] = .array(challenge.requirement.acrValues.map(JSONValue.string))
        }
        console.jsonLine(.object(line))
    }

    /// `max_age 300 s, acr_values urn:mfa`, or `a new sign-in`.
    static func asked(_ requirement: AuthenticationRequirement) -> String {
        var parts: [String] = []
        if let maxAge = requirement.maxAge { parts.append("signed in within the last \(maxAge) s") }
        if !requirement.acrValues.isEmpty { parts.append("acr_values \(requirement.acrValues.joined(separator: " "))") }
        return parts.isEmpty ? "a new sign-in" : parts.joined(separator: ", ")
    }

    /// `step-up --max-age 300 --acr-values 'a b'`, quoted for a shell.
    static func stepUpArguments(_ requirement: AuthenticationRequirement) -> String {
        var words = ["step-up"]
        if let maxAge = requirement.maxAge { words += ["--max-age", String(maxAge)] }
        if !requirement.acrValues.isEmpty { words += ["--acr-values", ShellWord.quoted(requirement.acrValues.joined(separator: " "))] }
        return words.joined(separator: " ")
    }

    /// `step-up`: the session's user signs in again (on the simulator: as an email; with a real provider: the browser
    /// round trip, the redirect pasted or caught on the loopback); the new tokens replace the session's. Exit 0 when
    /// stepped up, 3 without a session, 1 when refused (another user, the provider did not meet it) or failed.
    func stepUp() async -> Int32 {
        let state = await service.start()
        await drain()
        guard case .active = state else {
            console.message("No session is active (\(EventText.human(state))): nothing to step up. \(registerHint)")
            return ExitCode.registrationRequired
        }
        let url: URL
        do {
            url = try await service.beginStepUp(requirement: options.stepUpRequirement)
        } catch {
            console.message("Step-up failed: \(error.errorDescription ?? "failed")")
            return error == .noSession ? ExitCode.registrationRequired : ExitCode.failure
        }
        console.message("Step-up: sign in again (\(Self.asked(options.stepUpRequirement))).")
        var shown = false
        while true {
            let callback: URL
            if let simulator = environment.simulator {
                guard let email = await ask("Sign in as (email): ") else { return ExitCode.registrationRequired }
                do {
                    callback = try await simulator.authorize(url, as: email)
                } catch {
                    console.message("The simulated sign-in failed: \(error.localizedDescription)")
                    await service.cancelStepUp()
                    return ExitCode.failure
                }
            } else {
                do {
                    guard let redirect = try await browserRedirect(for: url, showing: !shown) else {
                        return ExitCode.registrationRequired
                    }
                    callback = redirect
                    shown = true
                } catch {
                    console.message("No redirect: \(error.errorDescription ?? "the listener failed").")
                    environment.loopback?.close()
                    await service.cancelStepUp()
                    return ExitCode.failure
                }
            }
            do {
                let assurance = try await service.completeStepUp(callback: callback)
                await drain()
                environment.loopback?.close()
                let at = assurance.authenticatedAt.map { EventText.timestamp($0) } ?? "(not said)"
                console.result("Stepped up: signed in \(at)\(assurance.acr.map { ", acr \($0)" } ?? "")")
                if options.json {
                    var line: [String: JSONValue] = ["result": "step-up"]
                    if let date = assurance.authenticatedAt { line["signed_in_at"] = .string(EventText.timestamp(date)) }
                    if let acr = assurance.acr { line["acr"] = .string(acr) }
                    console.jsonLine(.object(line))
                }
                return ExitCode.success
            } catch .registration(let failure) where failure.keepsAttempt(of: .authorizationCode) {
                console.message("That redirect does not belong to this step-up (\(failure.reasonCode)); it was refused and "
                                + "nothing was sent. The step-up is still waiting for its own redirect.")
                continue
            } catch {
                await drain()
                environment.loopback?.close()
                console.message("Step-up refused: \(error.errorDescription ?? "failed") The session is unchanged.")
                if options.json {
                    let reason = if case .registration(let failure) = error { failure.reasonCode } else { Self.code(error) }
                    console.jsonLine(["result": "step-up", "error": .string(reason)])
                }
                return ExitCode.failure
            }
        }
    }
}
