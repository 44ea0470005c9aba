import Foundation

extension OIDCClient {
    /// The grant type of Auth0's passwordless one-time-code exchange at the token endpoint.
    package static let passwordlessGrantType = "http://auth0.com/oauth/grant-type/passwordless/otp"

    /// Asks the provider to email a one-time code to `email` (Auth0's `POST /passwordless/start`).
    ///
    /// The address is checked for basic syntax first, so a typo is reported without a round trip.
    /// - Throws: ``OIDCError/invalidEmail``, ``OIDCError/unsupported(_:)`` (no start URL configured),
    ///   ``OIDCError/insecureURL(_:)``, ``OIDCError/passwordlessNotOffered`` (discovery lists grant types without
    ///   the one-time-code grant, or the start endpoint answers 404/405), ``OIDCError/rateLimited(retryAfter:)`` on
    ///   429, and the provider's other errors.
    package func startPasswordless(email: String) async throws(OIDCError) {
        let address = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard EmailAddress.isValid(address) else { throw .invalidEmail }
        guard let url = configuration.passwordlessStartURL else {
            throw .unsupported("passwordless login is not configured")
        }
        guard TransportSecurity.allows(url) else { throw .insecureURL("passwordless start URL") }
        guard try await offersPasswordless() else { throw .passwordlessNotOffered }
        let body: JSONValue = [
            "client_id": .string(configuration.clientID),
            "connection": "email",
            "email": .string(address),
            "send": "code",
        ]
        let response = try await ResponseReading.send(.json(.post, url: url, body: body), over: transport)
        guard response.isSuccess else {
            if response.status == 429 { throw .rateLimited(retryAfter: RetryAfter.seconds(in: response)) }
            if response.status == 404 || response.status == 405 { throw .passwordlessNotOffered }
            let error = ResponseReading.failure(response)
            if case .oauth(let code, _, _) = error, code == "bad.email" || code == "invalid_email" {
                throw .invalidEmail
            }
            throw error
        }
    }

    /// Exchanges the one-time code the user read in their email for tokens (Auth0's passwordless OTP grant).
    ///
    /// An `invalid_grant` refusal is read from its description (``passwordlessError(_:)``); with `proofKey`, the
    /// request carries a DPoP proof signed by it.
    /// - Throws: the code-specific cases, ``OIDCError/invalidEmail``, and the token endpoint's other errors.
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

    /// Whether the provider offers the one-time-code grant: discovery that lists `grant_types_supported` must name
    /// it; discovery without the list leaves the answer to the start endpoint.
    package func offersPasswordless() async throws(OIDCError) -> Bool {
        Self.listsPasswordless(try await metadata()) ?? true
    }

    /// Whether `metadata` lists the one-time-code grant; `nil` when it lists no grant types at all.
    static func listsPasswordless(_ metadata: ProviderMetadata) -> Bool? {
        metadata.grantTypesSupported.map { $0.contains(passwordlessGrantType) }
    }

    /// Maps a token endpoint refusal of a one-time code to the code-specific cases: 429 is rate limiting; an
    /// `invalid_grant` is read from its description (Auth0's "maximum number of attempts", "superseded", "expired",
    /// "used"), any other is ``OIDCError/wrongCode``.
    static func passwordlessError(_ error: OIDCError) -> OIDCError {
        if case .rateLimited = error { return error }
        if error.status == 429 { return .rateLimited(retryAfter: nil) }
        if case .oauth(let code, _, _) = error, code == "too_many_attempts" { return .tooManyAttempts }
        guard case .oauth(let code, let description, _) = error, code == "invalid_grant" else { return error }
        let text = (description ?? "").lowercased()
        if text.contains("maximum number of attempts") || text.contains("too many") { return .tooManyAttempts }
        if text.contains("superseded") || text.contains("replaced") { return .codeSuperseded }
        if text.contains("expired") { return .codeExpired }
        if text.contains("already been used") || text.contains("used") { return .codeReused }
        return .wrongCode
    }
}
