import Foundation

extension OIDCClient {
    /// The grant type of Auth0's passwordless one-time-code exchange at the token endpoint.
    package static let passwordlessGrantType = "http://auth0.com/oauth/grant-type/passwordless/otp"

    /// Asks the provider to email a one-time code to `email` (Auth0's `POST /passwordless/start`).
    ///
    /// Sends `{"client_id", "connection": "email", "email", "send": "code"}` as JSON. The address is checked for
    /// basic syntax first, so a typo is reported without a round trip.
    /// - Throws: ``OIDCError/invalidEmail`` for an unusable address, ``OIDCError/unsupported(_:)`` when the
    ///   configuration has no passwordless start URL, ``OIDCError/insecureURL(_:)`` when that URL is not `https` or
    ///   loopback, and the provider's errors.
    package func startPasswordless(email: String) async throws(OIDCError) {
        let address = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard EmailAddress.isValid(address) else { throw .invalidEmail }
        guard let url = configuration.passwordlessStartURL else {
            throw .unsupported("passwordless login is not configured")
        }
        guard TransportSecurity.allows(url) else { throw .insecureURL("passwordless start URL") }
        let body: JSONValue = [
            "client_id": .string(configuration.clientID),
            "connection": "email",
            "email": .string(address),
            "send": "code",
        ]
        let response = try await ResponseReading.send(.json(.post, url: url, body: body), over: transport)
        guard response.isSuccess else {
            let error = ResponseReading.failure(response)
            if case .oauth(let code, _, _) = error, code == "bad.email" || code == "invalid_email" {
                throw .invalidEmail
            }
            throw error
        }
    }

    /// Exchanges the one-time code the user read in their email for tokens (Auth0's passwordless OTP grant).
    ///
    /// Sends `grant_type=http://auth0.com/oauth/grant-type/passwordless/otp`, `client_id`, `username` (the email),
    /// `otp` (the code), `realm=email` and `scope`. An `invalid_grant` refusal is read from its description: one
    /// mentioning "expired" is ``OIDCError/codeExpired``, one mentioning "used" is ``OIDCError/codeReused``, any
    /// other is ``OIDCError/wrongCode``.
    /// - Throws: those three, ``OIDCError/invalidEmail``, and the token endpoint's other errors.
    /// With `proofKey`, the request carries a DPoP proof signed by it.
    package func verifyPasswordless(email: String, code: String, proofKey: DPoPKey? = nil) async throws(OIDCError)
        -> TokenResponse
    {
        let address = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard EmailAddress.isValid(address) else { throw .invalidEmail }
        let otp = code.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !otp.isEmpty else { throw .wrongCode }
        do throws(OIDCError) {
            let supported = try await metadata().scopesSupported
            return try await tokenRequest(proofKey: proofKey, [
                ("grant_type", Self.passwordlessGrantType),
                ("client_id", configuration.clientID),
                ("username", address),
                ("otp", otp),
                ("realm", "email"),
                ("scope", configuration.requestedScopes(supported: supported).joined(separator: " ")),
            ])
        } catch {
            throw Self.passwordlessError(error)
        }
    }

    /// Maps a token endpoint refusal of a one-time code to the code-specific cases.
    static func passwordlessError(_ error: OIDCError) -> OIDCError {
        guard case .oauth(let code, let description, _) = error, code == "invalid_grant" else { return error }
        let text = (description ?? "").lowercased()
        if text.contains("expired") { return .codeExpired }
        if text.contains("already been used") || text.contains("used") { return .codeReused }
        return .wrongCode
    }
}
