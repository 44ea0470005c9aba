import Foundation
import RegState

/// `call`, `update-token` and `notify-transient`: the backend API path and host mode.
extension CommandRun {
    /// An authorized `GET` to the backend: the security token goes to the backend's URLs, renewed once on a
    /// rejection (self mode: with the stored ID token; host mode: the host is told and this run cannot answer, so the
    /// call fails). Prints the status; exit 0 on 2xx, 3 without a session, 1 otherwise.
    func call() async -> Int32 {
        let state = await service.start()
        await drain()
        guard case .active = state else {
            console.message("No session is active (\(EventText.human(state))): nothing to call with. \(registerHint)")
            return ExitCode.registrationRequired
        }
        guard let backend = environment.backendURL else {
            console.message("No backend is configured: nothing to call. With --issuer, name the backend with --backend URL.")
            return ExitCode.usage
        }
        // An API that demands a sign-in (RFC 9470) checks the provider's access token, which carries it.
        let demands = !options.simulator.apiDemand.isEmpty
        if let simulator = environment.simulator {
            if demands { await simulator.demandSignIn(options.simulator.apiDemand, atResourcesUnder: "/v1/resource") }
            await simulator.setResourceTakesSecurityToken(!demands)
            await simulator.setResourceRejectsEveryToken(options.simulator.apiRejects)
            await simulator.setForcesLogoutAtResource(options.simulator.apiForcesLogout)
        }
        let path = options.callPath ?? CLIOptions.defaultCallPath
        let url = URL(string: String(backend.absoluteString.trimmingSuffix("/")) + path) ?? backend
        let policy = demands ? TokenPolicy(validatingURLs: [backend]) : .backend(backend)
        let transport = AuthorizedTransport(base: environment.transport, service: service, policy: policy)
        if service.sessionSource == .host { Self.answerHostNotice(service) }
        do {
            let response = try await transport.send(HTTPRequest(method: .get, url: url))
            await drain()
            console.result("HTTP \(response.status) \(path)")
            if options.json { console.jsonLine(Self.callJSON(path: path, status: response.status, error: nil)) }
            return response.isSuccess ? ExitCode.success : ExitCode.failure
        } catch .stepUpRequired(let challenge) {
            await drain()
            printStepUpAsked(challenge, path: path)
            return ExitCode.failure
        } catch {
            await drain()
            let text = error.errorDescription ?? "the call failed"
            console.message("Call failed: \(text)")
            if options.json { console.jsonLine(Self.callJSON(path: path, status: nil, error: Self.code(error))) }
            return ExitCode.failure
        }
    }

    /// Host mode: reads one ID token from standard input and hands it in, as the host app would after its login.
    func updateToken() async -> Int32 {
        await service.start()
        await drain()
        guard let line = await console.ask("ID token: "), !line.isEmpty else {
            console.message("regstate: update-token reads an ID token on standard input, and none came. Run it again and give the"
                            + " token as one line: \(options.typed("update-token"))")
            return ExitCode.usage
        }
        do {
            let state = try await service.updateToken(idToken: line)
            await drain()
            console.result("State: \(EventText.human(state))")
            return ExitCode.forState(state)
        } catch {
            await drain()
            console.message("Token refused: \(error.errorDescription ?? "refused")")
            if options.json { console.jsonLine(.object(["result": "update-token", "error": .string(Self.code(error))])) }
            return ExitCode.failure
        }
    }

    /// Host mode: the host could not renew for a transient reason; the session stays, offline.
    func notifyTransient() async -> Int32 {
        let state = await service.start()
        await drain()
        guard case .active = state, let issue = options.transientIssue else {
            console.message("No session is active (\(EventText.human(state))): nothing to keep. \(registerHint)")
            return ExitCode.registrationRequired
        }
        do {
            try await service.notifyTokenRenewalTransientIssue(issue)
        } catch {
            await drain()
            console.message("regstate: \(error.errorDescription ?? "refused")")
            return ExitCode.failure
        }
        let after = await service.state
        await drain()
        console.result("State: \(EventText.human(after))")
        return ExitCode.forState(after)
    }

    /// A one-shot run cannot ask a host: when the notice comes, it answers that renewal is not possible now, so the
    /// held call fails with a typed offline error instead of waiting forever.
    private static func answerHostNotice(_ service: RegStateService) {
        Task {
            for await event in await service.events() where event == .error(.renewal(.awaitingHost)) {
                try? await service.notifyTokenRenewalTransientIssue(.ssoUnspecifiedIssue)
                return
            }
        }
    }

    /// `{"result":"call","path":…,"status":…}` or with `"error"`.
    static func callJSON(path: String, status: Int?, error: String?) -> JSONValue {
        var object: [String: JSONValue] = ["result": "call", "path": .string(path)]
        if let status { object["status"] = .number(Double(status)) }
        if let error { object["error"] = .string(error) }
        return .object(object)
    }

    /// A stable code for an error, for `--json`.
    static func code(_ error: RegStateServiceError) -> String {
        switch error {
        case .noSession: "noSession"
        case .wrongSessionSource: "wrongSessionSource"
        case .registration(.invalidIDToken): "invalidIDToken"
        case .registration(.tooManyRegisteredDevices), .backend(.tooManyRegisteredDevices): "tooManyRegisteredDevices"
        case .registration(.maxSecurityTokens), .backend(.maxSecurityTokens): "maxSecurityTokens"
        case .backend(.invalidIDToken), .registration(.backendFailed): "backendRejectedIDToken"
        case .backend(.forcedLogout): "forcedLogout"
        case .offline(let issue): "offline.\(issue.rawValue)"
        case .rejectedAfterRenewal: "rejectedAfterRenewal"
        case .rejectionHeld: "rejectionHeld"
        case .stepUpRequired: "stepUpRequired"
        case .transport: "transport"
        default: "failed"
        }
    }
}

extension String {
    /// The string without one trailing `suffix`.
    func trimmingSuffix(_ suffix: String) -> Substring {
        hasSuffix(suffix) ? dropLast(suffix.count) : self[...]
    }
}
