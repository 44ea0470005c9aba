import Foundation

/// Pushed authorization requests (RFC 9126): the authorization parameters go to the provider in a direct `POST`, and
/// the browser gets only `client_id` and the `request_uri` it answered.
extension OIDCClient {
    /// Pushes `parameters` (`client_id` included: a public client's authentication) to `endpoint`, with a DPoP proof by
    /// `dpopKey` when DPoP is on (RFC 9449 §10.1, the nonce retry of §8).
    /// - Returns: the browser's URL (`client_id` and `request_uri`) and when its `request_uri` expires (client clock).
    /// - Throws: ``OIDCError/pushedAuthorizationRefused(error:description:status:)`` when the provider refuses,
    ///   transport, server and malformed-response errors otherwise.
    func push(_ parameters: [(String, String)], to endpoint: URL, authorizationEndpoint: URL, dpopKey: DPoPKey?)
        async throws(OIDCError) -> (url: URL, expiresAt: Date)
    {
        let response = try await send(.form(url: endpoint, parameters: parameters), proofKey: dpopKey)
        let pushed = try PushedAuthorizationResponse.parse(response)
        let browserParameters = [("client_id", configuration.clientID), ("request_uri", pushed.requestURI)]
        guard let url = Self.url(authorizationEndpoint, addingQuery: browserParameters) else {
            throw .malformedResponse("the authorization endpoint is not a usable URL")
        }
        return (url, clock.now().addingTimeInterval(pushed.expiresIn))
    }
}
