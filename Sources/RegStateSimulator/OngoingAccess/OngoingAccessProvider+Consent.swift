import Foundation
import RegState
import RegStateOngoingAccess

/// The consent screen, played by a test or the CLI.
extension OngoingAccessProvider {
    /// The user accepts at `consentURL`: returns the redirect with an authorization code and the state. An expired
    /// or already used pre-authorization code redirects with `error=invalid_request` instead.
    ///
    /// - Throws: ``OngoingAccessProviderError/unknownConsentRequest`` for a URL that names no pre-authorization.
    public func acceptConsent(_ consentURL: URL) throws(OngoingAccessProviderError) -> URL {
        try decide(consentURL, accept: true)
    }

    /// The user refuses at `consentURL`: returns the redirect with `error=access_denied` and the state.
    ///
    /// - Throws: ``OngoingAccessProviderError/unknownConsentRequest`` for a URL that names no pre-authorization.
    public func refuseConsent(_ consentURL: URL) throws(OngoingAccessProviderError) -> URL {
        try decide(consentURL, accept: false)
    }

    private func decide(_ consentURL: URL, accept: Bool) throws(OngoingAccessProviderError) -> URL {
        guard Simulator.relativePath(of: consentURL, under: configuration.baseURL) == "/v1/consent",
              let code = URLComponents(url: consentURL, resolvingAgainstBaseURL: false)?
                .queryItems?.first(where: { $0.name == "code" })?.value,
              var record = world.preAuthorizations[hash(code)]
        else { throw .unknownConsentRequest }
        let now = clock.now()
        var parameters = [URLQueryItem(name: "state", value: record.state)]
        if record.used || record.expiresAt <= now {
            parameters.append(URLQueryItem(name: "error", value: "invalid_request"))
            parameters.append(URLQueryItem(name: "error_description", value: "the pre-authorization code is expired or used"))
        } else if !accept {
            record.used = true
            parameters.append(URLQueryItem(name: "error", value: "access_denied"))
        } else {
            record.used = true
            let authorizationCode: String
            do {
                authorizationCode = try opaqueToken()
            } catch {
                throw .world("no random bytes")
            }
            world.codes[hash(authorizationCode)] = ConsentCodeRecord(
                redirectURI: record.redirectURI, codeChallenge: record.codeChallenge, scope: record.scope,
                expiresAt: now.addingTimeInterval(configuration.authorizationCodeLifetime))
            world.counters.consents += 1
            parameters.insert(URLQueryItem(name: "code", value: authorizationCode), at: 0)
        }
        world.preAuthorizations[hash(code)] = record
        try persist()
        var redirect = URLComponents(string: record.redirectURI)
        let existing = redirect?.queryItems ?? []
        redirect?.queryItems = existing + parameters
        guard let url = redirect?.url else { throw .world("the registered redirect URI is not a URL") }
        return url
    }
}

/// A `ConsentPresenter` that plays the user at an ``OngoingAccessProvider``: each presentation takes the next
/// scripted decision (the last one repeats), and counts itself.
public final class ScriptedConsent: ConsentPresenter {
    /// What the scripted user does.
    public enum Decision: Sendable, Equatable {
        /// Accept.
        case accept
        /// Refuse.
        case refuse
    }

    private let provider: OngoingAccessProvider
    private let script: LockedValue<(decisions: [Decision], presented: Int)>

    /// A user who decides `decisions` in turn at `provider`.
    public init(provider: OngoingAccessProvider, decisions: [Decision] = [.accept]) {
        self.provider = provider
        script = LockedValue((decisions, 0))
    }

    /// How many times the consent screen was shown.
    public var presentedCount: Int { script.withLock { $0.presented } }

    /// Takes the next decision at the provider's consent screen.
    public func presentConsent(at url: URL, redirectURI: URL) async throws -> URL {
        let decision = script.withLock { state -> Decision in
            defer { state.presented += 1 }
            return state.decisions.isEmpty ? .accept : state.decisions[min(state.presented, state.decisions.count - 1)]
        }
        switch decision {
        case .accept: return try await provider.acceptConsent(url)
        case .refuse: return try await provider.refuseConsent(url)
        }
    }
}
