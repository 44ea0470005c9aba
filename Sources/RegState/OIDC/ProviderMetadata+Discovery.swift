import Foundation

extension ProviderMetadata {
    /// Reads a discovery document strictly (``JSONValue/parse(_:limits:)``), member by member: unknown members are
    /// ignored, an optional one may be missing or `null`.
    /// - Throws: ``OIDCError/malformedResponse(_:)`` naming what is wrong (`bad scopes_supported.Index 0`), no value.
    package static func read(discovery body: Data) throws(OIDCError) -> ProviderMetadata {
        let document: JSONValue
        do {
            document = try JSONValue.parse(body)
        } catch {
            throw invalid(error.errorDescription ?? "not JSON")
        }
        guard let members = document.objectValue else { throw invalid("not a JSON object") }
        let string = { (value: JSONValue) in value.stringValue }
        let url = { (value: JSONValue) in value.stringValue.flatMap { URL(string: $0) } }
        let flag = { (value: JSONValue) in value.boolValue }
        func required<T>(_ name: String, _ read: (JSONValue) -> T?) throws(OIDCError) -> T {
            guard let value = members[name] else { throw invalid("missing \(name)") }
            guard let read = read(value) else { throw invalid("bad \(name)") }
            return read
        }
        func optional<T>(_ name: String, _ read: (JSONValue) -> T?) throws(OIDCError) -> T? {
            guard let value = members[name], value != .null else { return nil }
            guard let read = read(value) else { throw invalid("bad \(name)") }
            return read
        }
        func strings(_ name: String) throws(OIDCError) -> [String]? {
            guard let value = members[name], value != .null else { return nil }
            guard let elements = value.arrayValue else { throw invalid("bad \(name)") }
            return try elements.enumerated().map { index, element throws(OIDCError) in
                guard let text = element.stringValue else { throw invalid("bad \(name).Index \(index)") }
                return text
            }
        }
        var metadata = ProviderMetadata(
            issuer: try required("issuer", string),
            authorizationEndpoint: try required("authorization_endpoint", url),
            tokenEndpoint: try required("token_endpoint", url),
            userinfoEndpoint: try optional("userinfo_endpoint", url),
            jwksURI: try required("jwks_uri", url),
            revocationEndpoint: try optional("revocation_endpoint", url),
            endSessionEndpoint: try optional("end_session_endpoint", url),
            authorizationResponseIssParameterSupported: try optional("authorization_response_iss_parameter_supported", flag),
            codeChallengeMethodsSupported: try strings("code_challenge_methods_supported"),
            grantTypesSupported: try strings("grant_types_supported"),
            idTokenSigningAlgValuesSupported: try strings("id_token_signing_alg_values_supported"),
            scopesSupported: try strings("scopes_supported"))
        metadata.dpopSigningAlgValuesSupported = try strings("dpop_signing_alg_values_supported")
        metadata.pushedAuthorizationRequestEndpoint = try optional("pushed_authorization_request_endpoint", url)
        metadata.requirePushedAuthorizationRequests = try optional("require_pushed_authorization_requests", flag)
        metadata.deviceAuthorizationEndpoint = try optional("device_authorization_endpoint", url)
        return metadata
    }

    private static func invalid(_ detail: String) -> OIDCError {
        .malformedResponse("the discovery document is not valid (\(detail))")
    }
}
