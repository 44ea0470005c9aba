import Foundation

extension HostSession {
    /// Sends `request` with `transport`, carrying the security token when the policy lists its URL: on a rejection
    /// the host is told once and the request waits for its answer, then is retried once.
    ///
    /// Redirects are followed here, up to five hops, each judged afresh by the policy, so the token never follows a
    /// redirect to a URL the policy does not list.
    ///
    /// - Throws: ``HostSessionError`` (no session, offline, rejected after renewal, logged out), `CancellationError`
    ///   when the caller's task is cancelled while it waits, or the transport's error.
    public nonisolated func send(_ request: HTTPRequest, using transport: (any HTTPTransport)? = nil) async throws
        -> HTTPResponse
    {
        let base = transport ?? dependencies.transport
        var current = request
        var response = try await sendOnce(current, base: base)
        for _ in 0..<Redirect.maximumHops {
            guard let next = Redirect.next(after: current, response: response) else { return response }
            current = next
            response = try await sendOnce(current, base: base)
        }
        return response
    }

    /// A security token for a request the policy lists: the stored one, or (while the host is asked) the one the
    /// host's answer brings.
    ///
    /// - Throws: ``HostSessionError`` or `CancellationError`.
    public func securityToken() async throws -> String {
        switch phase {
        case .signedOut: throw HostSessionError.noSession
        case .awaitingHost: return try await waitForHost()
        case .active, .offline:
            guard let token = credentials?.securityToken else { throw HostSessionError.noSession }
            return token
        }
    }

    private nonisolated func sendOnce(_ request: HTTPRequest, base: any HTTPTransport) async throws -> HTTPResponse {
        guard policy.matches(request.url) else { return try await base.send(request) }
        let token = try await securityToken()
        var authorized = request
        authorized.headers["Authorization"] = "Bearer \(token)"
        let response = try await base.send(authorized)
        if policy.evaluateForcedLogout(response) {
            await end(.forcedLogout)
            throw HostSessionError.forcedLogout
        }
        guard policy.evaluateTokenRefresh(response) else { return response }
        let renewed = try await tokenRejected(token)
        authorized.headers["Authorization"] = "Bearer \(renewed)"
        let retried = try await base.send(authorized)
        if policy.evaluateForcedLogout(retried) {
            await end(.forcedLogout)
            throw HostSessionError.forcedLogout
        }
        if policy.evaluateTokenRefresh(retried) {
            await rejectedAgain(renewed)
            throw HostSessionError.rejectedAfterRenewal
        }
        return retried
    }

    /// The backend rejected `token`: the first rejection tells the host and every one waits for its answer; a
    /// rejection of a token already replaced gets the current one at once.
    func tokenRejected(_ token: String) async throws -> String {
        guard let current = credentials?.securityToken else { throw HostSessionError.noSession }
        if current != token, phase == .active { return current }
        switch phase {
        case .signedOut: throw HostSessionError.noSession
        case .awaitingHost: break
        case .active, .offline:
            if let exhausted, exhausted.token == token, dependencies.clock.now() < exhausted.until {
                if case .offline(let issue) = phase { throw HostSessionError.offline(issue) }
                throw HostSessionError.rejectedAfterRenewal
            }
            phase = .awaitingHost
            publish(.tokenExpired)
        }
        return try await waitForHost()
    }

    /// A token renewed for a rejection was rejected again: no new notice for it until the backoff has passed.
    func rejectedAgain(_ token: String) {
        guard credentials?.securityToken == token, phase == .active else { return }
        holdOff(token)
    }

    /// Waits for the host's answer; a cancelled caller stops waiting at once, the others keep waiting.
    func waitForHost() async throws -> String {
        let id = nextWaiter
        nextWaiter += 1
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    func cancelWaiter(_ id: Int) {
        waiters.removeValue(forKey: id)?.resume(throwing: CancellationError())
    }

    func resumeWaiters(with result: Result<String, any Error>) {
        let all = waiters
        waiters = [:]
        for waiter in all.values { waiter.resume(with: result) }
    }
}
