import Foundation

/// An ``HTTPTransport`` that adds the token the ``TokenPolicy`` names for each request's URL, and on a response the
/// policy calls a rejection, renews once and retries once: <doc:RequestPolicy> (shared renewals, redirects, DPoP).
public struct AuthorizedTransport: Sendable {
    private let base: any HTTPTransport
    private let service: RegStateService
    private let policy: TokenPolicy

    /// Wraps `base`, taking tokens from `service` for the URLs `policy` lists.
    public init(base: any HTTPTransport, service: RegStateService, policy: TokenPolicy) {
        self.base = base
        self.service = service
        self.policy = policy
    }

    /// Sends `request`, authorized when the policy lists its URL.
    ///
    /// - Throws: ``RegStateServiceError/transport(_:)`` when `base` got no response; the other
    ///   ``RegStateServiceError`` cases when no usable token can be had for a listed request
    ///   (``RegStateServiceError/cancelled`` when the caller's task is cancelled while it waits for a renewal).
    public func send(_ request: HTTPRequest) async throws(RegStateServiceError) -> HTTPResponse {
        var current = request
        var response = try await sendOnce(current)
        for _ in 0..<Redirect.maximumHops {
            guard let next = Redirect.next(after: current, response: response) else { return response }
            current = next
            response = try await sendOnce(current)
        }
        return response
    }

    /// One hop: authorized when the policy lists its URL, renewed and retried once on a rejection.
    private func sendOnce(_ request: HTTPRequest) async throws(RegStateServiceError) -> HTTPResponse {
        guard let carrier = policy.carrier(for: request.url) else { return try await sendBase(request) }
        let credential = try await service.credential(for: carrier)
        let response = try await send(request, with: credential)
        if try await isFinal(response) { return response }
        guard policy.evaluateTokenRefresh(request, response) else { return response }
        guard let renewed = try await service.renewed(after: credential) else { return response }
        let retried = try await send(request, with: renewed)
        if try await isFinal(retried) { return retried }
        if policy.evaluateTokenRefresh(request, retried) {
            await service.rejectedAgain(renewed)
            throw .rejectedAfterRenewal
        }
        return retried
    }

    /// Sends `request` authorized by `credential`; a DPoP nonce challenge is answered once.
    private func send(_ request: HTTPRequest, with credential: AccessCredential) async throws(RegStateServiceError)
        -> HTTPResponse
    {
        let dpop = service.runner.dpop
        guard credential.isDPoPBound else { return try await sendBase(try credential.authorizing(request, dpop: dpop)) }
        return try await dpop.answeringNonceChallenge(for: request.url, failure: RegStateServiceError.dpop) {
            () async throws(RegStateServiceError) in
            try await sendBase(try credential.authorizing(request, dpop: dpop))
        }
    }

    private func sendBase(_ request: HTTPRequest) async throws(RegStateServiceError) -> HTTPResponse {
        do {
            return try await base.send(request)
        } catch {
            throw .transport(error)
        }
    }

    /// Whether `response` is returned as it came, never renewed for: an RFC 9470 challenge (a renewal carries the old
    /// sign-in; a well-formed one throws ``RegStateServiceError/stepUpRequired(_:)``) or a forced logout (the session
    /// is ended first).
    private func isFinal(_ response: HTTPResponse) async throws(RegStateServiceError) -> Bool {
        switch StepUpChallenge.reading(response) {
        case .challenge(let challenge): throw .stepUpRequired(challenge)
        case .refused: return true
        case .none: break
        }
        guard policy.evaluateForcedLogout(response) else { return false }
        try? await service.handleForcedLogout()
        return true
    }
}
