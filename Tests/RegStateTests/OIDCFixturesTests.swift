import Foundation
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// Helpers shared by the OIDC, callback, PKCE and backend unit tests (no tests live here).

/// A transport that answers from a handler and records every request, for pure parsing and mapping tests.
final class OIDCCannedTransport: HTTPTransport {
    private let handler: @Sendable (HTTPRequest) throws(TransportError) -> HTTPResponse
    private let log = LockedValue<[HTTPRequest]>([])

    init(_ handler: @escaping @Sendable (HTTPRequest) throws(TransportError) -> HTTPResponse) {
        self.handler = handler
    }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        log.withLock { $0.append(request) }
        return try handler(request)
    }

    /// Every request received, oldest first.
    var requests: [HTTPRequest] { log.withLock { $0 } }

    /// The requests whose URL path is `path`.
    func requests(to path: String) -> [HTTPRequest] { requests.filter { $0.url.path == path } }
}

enum OIDCFixtures {
    static let issuer = URL(string: "https://idp.test")!
    static let redirectURI = URL(string: "com.example.app:/callback")!

    static func configuration(issuer: URL = issuer, redirectURI: URL = redirectURI,
                              extra: [String: String] = [:]) -> OIDCConfiguration {
        OIDCConfiguration(issuer: issuer, clientID: "client-1", redirectURI: redirectURI,
                          additionalAuthorizationParameters: extra)
    }

    /// A discovery document for `issuer` (endpoints under `https://idp.test`).
    static func discovery(issuer: String = "https://idp.test", issParameter: Bool = true,
                          authorizationEndpoint: String = "https://idp.test/authorize",
                          revocation: Bool = true) -> JSONValue {
        var document: [String: JSONValue] = [
            "issuer": .string(issuer),
            "authorization_endpoint": .string(authorizationEndpoint),
            "token_endpoint": "https://idp.test/oauth/token",
            "userinfo_endpoint": "https://idp.test/userinfo",
            "jwks_uri": "https://idp.test/.well-known/jwks.json",
            "authorization_response_iss_parameter_supported": .bool(issParameter),
            "code_challenge_methods_supported": ["S256"],
        ]
        if revocation { document["revocation_endpoint"] = "https://idp.test/oauth/revoke" }
        return .object(document)
    }

    /// A transport serving discovery at the standard path and `routes` (by path) for the rest.
    static func provider(discovery: JSONValue = discovery(),
                         _ routes: @escaping @Sendable (HTTPRequest) -> HTTPResponse? = { _ in nil })
        -> OIDCCannedTransport
    {
        OIDCCannedTransport { request in
            if request.url.path == "/.well-known/openid-configuration" { return .json(200, discovery) }
            return routes(request) ?? .json(404, ["error": "not_found"])
        }
    }

    /// A client over `transport` with a fixed clock.
    static func client(_ transport: any HTTPTransport, configuration: OIDCConfiguration = configuration(),
                       clock: ManualClock = ManualClock()) -> OIDCClient {
        OIDCClient(configuration: configuration, transport: transport, crypto: SystemCrypto(), clock: clock)
    }

    /// A raw HTTP response with a body string.
    static func raw(_ status: Int, _ body: String, contentType: String = "application/json") -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: Data(body.utf8))
    }
}
