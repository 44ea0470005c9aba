import Foundation
import RegState

/// The responses the simulated servers send, in the shapes real servers use.
enum ServerResponse {
    /// An OAuth error (RFC 6749 §5.2): `{"error", "error_description"}`.
    static func oauthError(_ status: Int, _ error: String, _ description: String) -> HTTPResponse {
        .json(status, ["error": .string(error), "error_description": .string(description)])
    }

    /// `401 invalid_token` with the RFC 6750 challenge, for a bearer token that cannot be used.
    static func invalidBearerToken(_ description: String) -> HTTPResponse {
        .json(401, ["error": "invalid_token", "error_description": .string(description)],
              headers: ["WWW-Authenticate": "Bearer error=\"invalid_token\", error_description=\"\(description)\""])
    }

    /// A backend error: `{"error": code}`.
    static func backendError(_ status: Int, _ code: String) -> HTTPResponse {
        .json(status, ["error": .string(code)])
    }

    /// `404` for a path no endpoint serves.
    static let notFound = HTTPResponse.json(404, ["error": "not_found"])

    /// `405` for a known path with the wrong method.
    static let methodNotAllowed = HTTPResponse.json(405, ["error": "method_not_allowed"])

    /// `500`, for a provider that is down or a world that could not be saved.
    static func serverError(_ description: String) -> HTTPResponse {
        oauthError(500, "server_error", description)
    }

    /// The bearer token of `request`'s `Authorization` header, if any.
    /// The `Authorization` header's scheme (`Bearer` or `DPoP`, as spelled in RFC 6750 and RFC 9449) and token.
    static func authorization(of request: HTTPRequest) -> (scheme: String, token: String)? {
        guard let header = request.header("Authorization") else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        for scheme in ["Bearer", "DPoP"] where parts[0].caseInsensitiveCompare(scheme) == .orderedSame {
            return token.isEmpty ? nil : (scheme, token)
        }
        return nil
    }

    static func bearerToken(of request: HTTPRequest) -> String? {
        guard let header = request.header("Authorization") else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].caseInsensitiveCompare("Bearer") == .orderedSame else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
