import Foundation

extension TokenResponse {
    /// Reads a token endpoint's HTTP response: a 2xx JSON object with a non-empty `access_token` (what else is read,
    /// and why a missing `token_type` is `Bearer`: `docs/Internals-Grants.md`).
    /// - Throws: a non-2xx or a web page as ``ResponseReading/failure(_:)`` maps it,
    ///   ``OIDCError/malformedResponse(_:)`` for another unreadable 2xx.
    package static func parse(_ response: HTTPResponse) throws(OIDCError) -> TokenResponse {
        let object = try ResponseReading.jsonObject(response, what: "token response")
        guard let accessToken = object["access_token"]?.stringValue, !accessToken.isEmpty else {
            throw .malformedResponse("the token response has no access_token")
        }
        let tokenType: String
        switch object["token_type"] {
        case nil, .null:
            tokenType = "Bearer"
        case .string(let value) where value.caseInsensitiveCompare("Bearer") == .orderedSame:
            tokenType = "Bearer"
        case .string(let value) where value.caseInsensitiveCompare("DPoP") == .orderedSame:
            tokenType = "DPoP"
        case .string:
            throw .malformedResponse("the token type is neither Bearer nor DPoP")
        default:
            throw .malformedResponse("the token_type is not a string")
        }
        // A lifetime of 0 would make every call renew: refused like any other unusable answer (negative,
        // non-numeric and out-of-range values are refused by `seconds`; a long one is clamped by `expiresAt(from:)`).
        let expiresIn = try seconds(object["expires_in"], name: "expires_in")
        if expiresIn == 0 { throw .malformedResponse("expires_in is 0") }
        return TokenResponse(
            accessToken: accessToken,
            tokenType: tokenType,
            expiresIn: expiresIn,
            refreshToken: nonEmptyString(object["refresh_token"]),
            idToken: nonEmptyString(object["id_token"]),
            scope: nonEmptyString(object["scope"]),
            refreshExpiresIn: try seconds(object["refresh_expires_in"] ?? object["refresh_token_expires_in"],
                                          name: "refresh_expires_in"))
    }

    private static func nonEmptyString(_ value: JSONValue?) -> String? {
        guard let text = value?.stringValue, !text.isEmpty else { return nil }
        return text
    }

    /// A lifetime given as a number or a numeric string (``JSONValue/lifetimeValue``); `nil` when absent. Out of
    /// ``RecordedTime``'s range (negative, 1e308, …) is refused like any other damage to the answer.
    private static func seconds(_ value: JSONValue?, name: String) throws(OIDCError) -> TimeInterval? {
        switch value {
        case nil, .null: return nil
        case .number?, .string?:
            if let seconds = value?.lifetimeValue { return seconds }
            if case .string(let text)? = value, Double(text.trimmingCharacters(in: .whitespaces)) == nil {
                throw .malformedResponse("\(name) is not a number")
            }
            throw .malformedResponse("\(name) is out of range")
        default:
            throw .malformedResponse("\(name) is not a number")
        }
    }
}
