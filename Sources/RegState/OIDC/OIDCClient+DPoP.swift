import Foundation

extension OIDCClient {
    /// Sends `request`, with a fresh DPoP proof by `key` when there is one and DPoP is configured; on
    /// `400 use_dpop_nonce` with a `DPoP-Nonce` header, remembers the nonce and tries once more with a new proof
    /// carrying it (RFC 9449 §8), never twice. Every answer's `DPoP-Nonce` is remembered for the next request to the
    /// same origin.
    ///
    /// - Throws: ``OIDCError/dpop(_:)`` when no proof can be made or the nonce is absurd; transport errors.
    func send(_ request: HTTPRequest, proofKey key: DPoPKey?) async throws(OIDCError) -> HTTPResponse {
        guard let key, let context = dpop else { return try await ResponseReading.send(request, over: transport) }
        var response = try await sendOnceWithProof(request, key: key, context: context)
        let fresh = try rememberNonce(of: response, for: request.url, context: context)
        guard fresh, Self.asksForNonce(response) else { return response }
        response = try await sendOnceWithProof(request, key: key, context: context)
        _ = try rememberNonce(of: response, for: request.url, context: context)
        return response
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

    /// Remembers the answer's nonce; `true` when it gave one.
    private func rememberNonce(of response: HTTPResponse, for url: URL, context: DPoPContext) throws(OIDCError) -> Bool {
        do {
            return try context.remember(nonceFrom: response, for: url)
        } catch {
            throw .dpop(error)
        }
    }

    /// A `400` whose OAuth error is `use_dpop_nonce` (RFC 9449 §8), or the `403` some providers use for it.
    static func asksForNonce(_ response: HTTPResponse) -> Bool {
        guard response.status == 400 || response.status == 401 || response.status == 403 else { return false }
        return response.jsonBody?.objectValue?["error"]?.stringValue == "use_dpop_nonce"
    }
}
