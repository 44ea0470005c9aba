import Foundation

/// Reads an authorization response redirect (RFC 6749 §4.1.2, RFC 9207): the pure checks behind
/// `OIDCClient/authorizationCode(from:for:)`, usable without a client.
package enum AuthorizationCallback {
    /// The authorization code in `callback`, after every check (how the redirect compares: `docs/Internals-Grants.md`);
    /// `issuerRequired`: the provider advertises `authorization_response_iss_parameter_supported`.
    /// - Throws: ``RegistrationFailure/malformedCallback(_:)``, ``RegistrationFailure/stateMismatch``,
    ///   ``RegistrationFailure/issuerMismatchInCallback`` or
    ///   ``RegistrationFailure/authorizationDenied(error:description:)``.
    package static func code(from callback: URL, expectedRedirect: URL, expectedState: String, issuer: String,
                            issuerRequired: Bool) throws(RegistrationFailure) -> String {
        guard let received = URLComponents(url: callback, resolvingAgainstBaseURL: false),
              let expected = URLComponents(url: expectedRedirect, resolvingAgainstBaseURL: false)
        else { throw .malformedCallback("not a URL") }
        guard received.scheme?.lowercased() == expected.scheme?.lowercased() else {
            throw .malformedCallback("wrong scheme")
        }
        if isHierarchical(expected) {
            guard (received.host ?? "").lowercased() == (expected.host ?? "").lowercased(),
                  effectivePort(received) == effectivePort(expected)
            else { throw .malformedCallback("wrong host or port") }
            guard trimmedPath(received.percentEncodedPath) == trimmedPath(expected.percentEncodedPath) else {
                throw .malformedCallback("wrong path")
            }
        } else {
            guard customSchemeLocation(received) == customSchemeLocation(expected) else {
                throw .malformedCallback("wrong path")
            }
        }
        let parameters = received.percentEncodedQuery.map(FormEncoding.decode) ?? [:]
        guard let state = parameters["state"], state == expectedState else { throw .stateMismatch }
        if let iss = parameters["iss"] {
            guard iss == issuer else { throw .issuerMismatchInCallback }
        } else if issuerRequired {
            throw .issuerMismatchInCallback
        }
        if let error = parameters["error"] {
            let description = parameters["error_description"].flatMap { $0.isEmpty ? nil : $0 }
            throw .authorizationDenied(error: error, description: description)
        }
        guard let code = parameters["code"], !code.isEmpty else { throw .malformedCallback("no code") }
        return code
    }

    /// Whether `components` is an `http`/`https` URL, whose host, port and path are compared separately.
    private static func isHierarchical(_ components: URLComponents) -> Bool {
        ["http", "https"].contains(components.scheme?.lowercased() ?? "")
    }

    /// A private-use scheme redirect's location without its slashes: `com.example.app:/callback`,
    /// `com.example.app://callback/` and `com.example.app:callback` all read `callback`. User agents rewrite the
    /// RFC 8252 §7.1 single-slash form into the authority form (curl and some browsers do), so the forms must match.
    private static func customSchemeLocation(_ components: URLComponents) -> String {
        let authority = (components.percentEncodedHost ?? "") + (components.port.map { ":\($0)" } ?? "")
        let location = authority + "/" + components.percentEncodedPath
        return location.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
    }

    private static func effectivePort(_ components: URLComponents) -> Int? {
        if let port = components.port { return port }
        switch components.scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }

    private static func trimmedPath(_ path: String) -> String {
        var path = path
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
