import Foundation
import RegState

/// The userinfo endpoint, which the engine never calls (its profile comes from the ID token and the backend's check):
/// tests and the fuzzer read a provider's userinfo answers through it.
extension OIDCClient {
    /// The user's claims from the userinfo endpoint (OIDC Core §5.3), fetched with the access token as a bearer, once
    /// their `sub` is `subject`, the session's ID token's: a response about another subject may be someone else's
    /// claims, substituted, and nothing of it is returned (§5.3.2).
    /// - Throws: ``UserInfoError/subjectMismatch``, ``UserInfoError/unauthorized`` on 401, and as
    ///   ``UserInfoError/provider(_:)``: ``OIDCError/unsupported(_:)`` without a userinfo endpoint,
    ///   ``OIDCError/malformedResponse(_:)`` for anything but a JSON object with a string `sub` (signed responses are
    ///   not supported), transport and server errors.
    package func userInfo(accessToken: String, subject: String) async throws(UserInfoError) -> [String: JSONValue] {
        let response: HTTPResponse
        do throws(OIDCError) {
            guard let endpoint = try await metadata().userinfoEndpoint else {
                throw .unsupported("the provider has no userinfo endpoint")
            }
            let request = HTTPRequest(method: .get, url: endpoint,
                                      headers: AccessCredential.bearerFields(accessToken, carrier: .accessToken,
                                                                             merging: ["Accept": "application/json"]))
            response = try await ResponseReading.send(request, over: transport)
        } catch {
            throw .provider(error)
        }
        if response.status == 401 { throw .unauthorized }
        let claims: [String: JSONValue]
        do throws(OIDCError) {
            claims = try ResponseReading.jsonObject(response, what: "userinfo response")
        } catch {
            throw .provider(error)
        }
        guard let received = claims["sub"]?.stringValue, !received.isEmpty else {
            throw .provider(.malformedResponse("the userinfo response has no sub"))
        }
        guard received == subject else { throw .subjectMismatch }
        return claims
    }
}
