import Foundation

/// Sign-in with an emailed one-time code (Auth0's `POST /passwordless/start` and its OTP grant at the token endpoint);
/// nothing in the store: the attempt is the address the machine holds (one unit: `docs/Internals-Grants.md`).
package struct PasswordlessGrant: Sendable {
    /// The grant type of the one-time-code exchange at the token endpoint.
    package static let grantType = "http://auth0.com/oauth/grant-type/passwordless/otp"

    let provider: OIDCClient

    /// A grant over `provider`.
    package init(provider: OIDCClient) {
        self.provider = provider
    }

    private var configuration: OIDCConfiguration { provider.configuration }

    /// Whether the attempt waits on after `failure`: the user may type another code or ask for a resend.
    static func survives(_ failure: RegistrationFailure) -> Bool {
        switch failure {
        case .wrongCode, .codeExpired, .codeReused, .codeSuperseded, .rateLimited: true
        default: false
        }
    }

    /// Asks the provider to email a one-time code to `email`.
    /// - Throws: ``RegistrationFailure/invalidEmail``, ``RegistrationFailure/unsupported(_:)`` (no start URL),
    ///   ``RegistrationFailure/grantNotOffered(_:)``, ``RegistrationFailure/rateLimited(retryAfter:)`` on 429, and
    ///   the provider's other errors as their failure.
    package func start(email: String) async throws(RegistrationFailure) {
        let address = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard EmailAddress.isValid(address) else { throw .invalidEmail }
        guard let url = configuration.passwordlessStartURL else { throw .unsupported("passwordless login is not configured") }
        let response = try await RegistrationFailure.catching { () async throws(OIDCError) in
            guard TransportSecurity.allows(url) else { throw .insecureURL("passwordless start URL") }
            // Discovery that lists `grant_types_supported` must name it; without the list the start endpoint answers.
            guard Self.lists(try await provider.metadata()) ?? true else { throw .grantNotOffered(.passwordless) }
            let body: JSONValue = [
                "client_id": .string(configuration.clientID),
                "connection": "email",
                "email": .string(address),
                "send": "code",
            ]
            return try await ResponseReading.send(.json(.post, url: url, body: body), over: provider.transport)
        }
        guard !response.isSuccess else { return }
        if response.status == 429 { throw .rateLimited(retryAfter: RetryAfter.seconds(in: response)) }
        if response.status == 404 || response.status == 405 { throw .grantNotOffered(.passwordless) }
        let error = ResponseReading.failure(response)
        if case .oauth(let code, _, _) = error, code == "bad.email" || code == "invalid_email" { throw .invalidEmail }
        throw RegistrationFailure(error)
    }

    /// Exchanges the one-time code the user read in their email for tokens, with a DPoP proof by `proofKey` if any.
    /// - Throws: the code-specific failures (``refusal(_:)``), ``RegistrationFailure/invalidEmail``, the token
    ///   endpoint's others.
    package func verify(email: String, code: String, proofKey: DPoPKey? = nil) async throws(RegistrationFailure)
        -> TokenResponse
    {
        let address = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard EmailAddress.isValid(address) else { throw .invalidEmail }
        let otp = code.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !otp.isEmpty else { throw .wrongCode }
        do throws(OIDCError) {
            let supported = try await provider.metadata().scopesSupported
            return try await provider.tokenRequest(proofKey: proofKey, [
                ("grant_type", Self.grantType),
                ("client_id", configuration.clientID),
                ("username", address),
                ("otp", otp),
                ("realm", "email"),
                ("scope", configuration.requestedScopes(supported: supported).joined(separator: " ")),
            ])
        } catch {
            throw Self.refusal(error)
        }
    }

    /// What the configuration and the provider's discovery (cached, or read now) say about the grant.
    func availability() async -> PasswordlessAvailability {
        guard configuration.passwordlessStartURL != nil else { return .notConfigured }
        guard let metadata = try? await provider.metadata(), let listed = Self.lists(metadata) else { return .unknown }
        return listed ? .offered : .notOffered
    }

    /// Whether `metadata` lists the grant; `nil` when it lists no grant types at all.
    static func lists(_ metadata: ProviderMetadata) -> Bool? {
        metadata.grantTypesSupported.map { $0.contains(grantType) }
    }

    /// A token endpoint refusal of a one-time code as the code-specific failures: 429 is rate limiting; an
    /// `invalid_grant` is read from its description (Auth0's "maximum number of attempts", "superseded", "expired",
    /// "used"), any other is ``RegistrationFailure/wrongCode``.
    package static func refusal(_ error: OIDCError) -> RegistrationFailure {
        if error.status == 429 { return .rateLimited(retryAfter: nil) }
        if case .oauth(let code, _, _) = error, code == "too_many_attempts" { return .tooManyAttempts }
        guard case .oauth(let code, let description, _) = error, code == "invalid_grant" else {
            return RegistrationFailure(error)
        }
        let text = (description ?? "").lowercased()
        if text.contains("maximum number of attempts") || text.contains("too many") { return .tooManyAttempts }
        if text.contains("superseded") || text.contains("replaced") { return .codeSuperseded }
        if text.contains("expired") { return .codeExpired }
        if text.contains("already been used") || text.contains("used") { return .codeReused }
        return .wrongCode
    }
}

extension PasswordlessGrant {
    /// The registration's start: the new registration's DPoP key made, then the code sent; the event that reports it.
    func send(to email: String, for runner: EffectRunner) async -> MachineEvent {
        do throws(RegistrationFailure) {
            _ = try await RegistrationFailure.catching { () async throws(OIDCError) in
                try await LoginTokens(runner: runner).keyForNewRegistration()
            }
            try await start(email: email)
            return .authorizationIssued
        } catch {
            return .registrationFailed(error)
        }
    }

    /// The registration's finish: the code verified with the registration's key, the tokens checked and stored
    /// provisionally (``LoginTokens/authenticate(with:nonce:requirement:type:proofKey:stillWanted:)``); `nil` when
    /// the user moved on.
    func verify(_ code: String, for email: String, with runner: EffectRunner,
                stillWanted: @Sendable () async -> Bool) async -> MachineEvent? {
        do throws(RegistrationFailure) {
            let key = try LoginTokens(runner: runner).registrationKey()
            let response = try await verify(email: email, code: code, proofKey: key)
            return await LoginTokens(runner: runner).authenticate(with: response, nonce: nil, type: .passwordless, proofKey: key,
                                             stillWanted: stillWanted)
        } catch {
            return .registrationFailed(error)
        }
    }
}
