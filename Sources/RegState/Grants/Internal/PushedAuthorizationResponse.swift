import Foundation

/// The provider's answer to a pushed authorization request (RFC 9126 §2.2): the `request_uri` the browser is sent
/// with, and how long it lives.
struct PushedAuthorizationResponse: Sendable, Equatable {
    /// The reference to the pushed parameters; single use, opaque.
    var requestURI: String
    /// `expires_in`: seconds the `request_uri` lives after the push.
    var expiresIn: TimeInterval

    /// The longest lifetime taken at its word (a day): a larger `expires_in` is read as this, so that a broken answer
    /// cannot keep a dead URL around.
    static let longestLifetime: TimeInterval = 86_400

    /// The longest `request_uri` taken, in bytes (512: the JAR draft's cap; `docs/Internals-Grants.md`).
    static let longestRequestURI = 512

    /// Reads the answer: a 2xx (RFC 9126: 201) JSON object with a `request_uri` of at most ``longestRequestURI`` bytes
    /// and a positive `expires_in`. - Throws: ``OIDCError/pushedAuthorizationRefused(error:description:status:)`` for
    /// a 4xx, ``OIDCError/malformedResponse(_:)`` for an unreadable 2xx, transient errors as ``ResponseReading`` maps.
    static func parse(_ response: HTTPResponse) throws(OIDCError) -> PushedAuthorizationResponse {
        guard response.isSuccess else {
            switch ResponseReading.failure(response) {
            case .oauth(let error, let description, let status):
                throw .pushedAuthorizationRefused(error: error, description: description, status: status)
            case .unexpectedStatus(let status):
                throw .pushedAuthorizationRefused(error: nil, description: nil, status: status)
            case let other:
                throw other
            }
        }
        let object = try ResponseReading.jsonObject(response, what: "pushed authorization response")
        guard let requestURI = object["request_uri"]?.stringValue, !requestURI.isEmpty else {
            throw .malformedResponse("the pushed authorization response has no request_uri")
        }
        guard requestURI.utf8.count <= longestRequestURI else {
            throw .malformedResponse("the pushed authorization response's request_uri is longer than "
                                     + "\(longestRequestURI) characters (\(requestURI.utf8.count))")
        }
        guard case .number(let expiresIn)? = object["expires_in"], expiresIn.isFinite, expiresIn > 0 else {
            throw .malformedResponse("the pushed authorization response has no positive expires_in")
        }
        return PushedAuthorizationResponse(requestURI: requestURI, expiresIn: min(expiresIn, longestLifetime))
    }
}
