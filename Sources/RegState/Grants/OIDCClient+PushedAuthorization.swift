import Foundation

/// Pushed authorization requests (RFC 9126): the authorization parameters go to the provider in a direct `POST`, and
/// the browser gets only `client_id` and the `request_uri` it answered.
extension OIDCClient {
    /// The browser's URL for `parameters`: with `pushEndpoint`, they are pushed there (`client_id` included: a public
    /// client's authentication; a DPoP proof by `dpopKey`, RFC 9449 §10.1) and the URL carries only `client_id` and
    /// the `request_uri`, which expires at `expiresAt` (client clock); without, the URL carries them all.
    /// - Throws: ``OIDCError/pushedAuthorizationRefused(error:description:status:)`` when the provider refuses,
    ///   transport, server and malformed-response errors otherwise.
    func authorizationURL(_ parameters: [(String, String)], pushedTo pushEndpoint: URL?, metadata: ProviderMetadata,
                          dpopKey: DPoPKey?) async throws(OIDCError) -> (url: URL, expiresAt: Date?)
    {
        var query = parameters
        var expiresAt: Date?
        if let pushEndpoint {
            let response = try await send(.form(url: pushEndpoint, parameters: parameters), proofKey: dpopKey)
            let pushed = try PushedAuthorizationResponse.parse(response)
            query = [("client_id", configuration.clientID), ("request_uri", pushed.requestURI)]
            expiresAt = clock.now().addingTimeInterval(pushed.expiresIn)
        }
        guard let url = Self.url(metadata.authorizationEndpoint, addingQuery: query) else {
            throw .malformedResponse("the authorization endpoint is not a usable URL")
        }
        return (url, expiresAt)
    }
}
