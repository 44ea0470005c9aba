import Foundation

extension OIDCClient {
    /// Sends `request` with a fresh DPoP proof by `key` (when DPoP is configured); on `400 use_dpop_nonce` it keeps the
    /// `DPoP-Nonce` and tries once more with it (RFC 9449 §8), never twice; every answer's nonce is kept per origin.
    /// - Throws: ``OIDCError/dpop(_:)`` when no proof can be made or the nonce is absurd; transport errors.
    func send(_ request: HTTPRequest, proofKey key: DPoPKey?) async throws(OIDCError) -> HTTPResponse {
        guard let key, let context = dpop else { return try await ResponseReading.send(request, over: transport) }
        return try await context.answeringNonceChallenge(for: request.url, failure: OIDCError.dpop) { () async throws(OIDCError) in
            try await sendOnceWithProof(request, key: key, context: context)
        }
    }

    /// The token type rule: a proof's answer is `DPoP` (or, unless DPoP is required, `Bearer`: an unbound session);
    /// an answer to a request without a proof must be `Bearer`.
    /// - Throws: ``DPoPError/unboundTokenIssued`` when DPoP is required and the answer is `Bearer` (nothing is stored);
    ///   ``DPoPError/boundTokenWithoutProof`` for a `DPoP` token no proof asked for.
    func checkTokenType(_ response: TokenResponse, proofKey: DPoPKey?) throws(OIDCError) -> TokenResponse {
        guard proofKey != nil else {
            if response.isDPoPBound { throw .dpop(.boundTokenWithoutProof) }
            return response
        }
        if !response.isDPoPBound, dpop?.mode == .required { throw .dpop(.unboundTokenIssued) }
        return response
    }

    private func sendOnceWithProof(_ request: HTTPRequest, key: DPoPKey, context: DPoPContext) async throws(OIDCError)
        -> HTTPResponse
    {
        var signed = request
        do {
            signed.headers["DPoP"] = try context.proof(key: key, method: request.method.rawValue, url: request.url)
        } catch {
            throw .dpop(error)
        }
        return try await ResponseReading.send(signed, over: transport)
    }
}
