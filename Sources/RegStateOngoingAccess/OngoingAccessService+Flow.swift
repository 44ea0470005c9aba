import Foundation
import RegState

/// The authorization flow: pre-authorization, consent, token exchange, refresh and the data session.
extension OngoingAccessService {
    /// Restores from `token` (refreshing it, or re-consenting, as needed) or, without one, asks for consent. Each
    /// path asks the transient backoff first (``admitProviderCall(userAction:)``); consent is the user's action.
    func authorize(scope: OngoingAccessScope, token given: OAuthToken?) async throws(OngoingAccessError)
        -> OngoingAccessAuthorization
    {
        guard let given else {
            try admitProviderCall(userAction: true)
            return try await consent(scope: scope)
        }
        let now = dependencies.clock.now()
        // A refresh token within the grace period of its expiry would die on the way: treat it as expired already.
        if given.refreshTokenExpiresAt.addingTimeInterval(-configuration.gracePeriod) <= now {
            return try await recover(scope: scope)
        }
        try admitProviderCall(userAction: false)
        return try await restore(given, scope: scope)
    }

    /// Restores from `token`, refreshing it when its access token has expired (or the provider no longer honours it).
    private func restore(_ given: OAuthToken, scope: OngoingAccessScope) async throws(OngoingAccessError)
        -> OngoingAccessAuthorization
    {
        var token = given
        let now = dependencies.clock.now()
        var refreshed = false
        if token.accessTokenExpiresAt.addingTimeInterval(-configuration.gracePeriod) <= now {
            guard let renewed = try await refreshOrExpired(token) else { return try await recover(scope: scope) }
            token = renewed
            refreshed = true
        }
        let session: OngoingAccessSession
        do {
            session = try await openSession(token: token, scope: scope)
        } catch .providerRefused(status: 401, _) where !refreshed {
            // The provider no longer honours an access token the clock still trusted: refresh once and try again.
            guard let renewed = try await refreshOrExpired(token) else { return try await recover(scope: scope) }
            token = renewed
            refreshed = true
            session = try await openSession(token: token, scope: scope)
        }
        return OngoingAccessAuthorization(session: session, oAuthToken: token, origin: .restored, refreshed: refreshed)
    }

    /// The refresh token has expired or was refused: consent again, or fail with `oAuthTokenExpired`.
    private func recover(scope: OngoingAccessScope) async throws(OngoingAccessError) -> OngoingAccessAuthorization {
        guard configuration.autoRecoverExpiredCredentials else { throw .oAuthTokenExpired }
        try admitProviderCall(userAction: false)
        try apply(.reconsentNeeded)
        return try await consent(scope: scope)
    }

    /// Refreshes `token`; `nil` when the provider refuses the refresh token (`invalid_grant`: expired or revoked).
    /// The refresh token's expiry comes from the answer; the provider does not extend it.
    ///
    /// The keys the answer may need come first: an answer signed with a key the pinned set lacks (the provider
    /// rotated) is checked against an allow-listed key set, and while that cannot be fetched no grant is spent on an
    /// answer that could not be checked (``OngoingAccessError/answerRejected(_:)``, transient).
    func refreshOrExpired(_ token: OAuthToken) async throws(OngoingAccessError) -> OAuthToken? {
        let keySets = try await client.keySetsForAnswers()
        let payload: [String: JSONValue]
        do {
            payload = try await client.exchange("oauth/token", claims: [
                "grant_type": "refresh_token", "refresh_token": .string(token.refreshToken),
            ], now: dependencies.clock.now(), keySets: keySets)
        } catch .providerRefused(status: 400, error: "invalid_grant") {
            return nil
        }
        let renewed = try OngoingAccessClient.token(from: payload)
        try apply(.refreshed(accessTokenExpiresAt: renewed.accessTokenExpiresAt))
        return renewed
    }

    /// Pre-authorization, the user's consent, and the token exchange; then the data session.
    private func consent(scope: OngoingAccessScope) async throws(OngoingAccessError) -> OngoingAccessAuthorization {
        let state = try client.randomToken()
        let verifier = try client.randomToken()
        let redirectURI = configuration.redirectURI
        let preAuthorization = try await client.exchange("oauth/authorize", claims: [
            "response_type": "code", "contract_id": .string(configuration.contractID),
            "redirect_uri": .string(redirectURI.absoluteString), "state": .string(state),
            "code_challenge": .string(PKCE.challenge(for: verifier, crypto: dependencies.crypto)),
            "code_challenge_method": .string(PKCE.method), "scope": scope.json,
        ], now: dependencies.clock.now())
        guard let preAuthorizationCode = preAuthorization["preauthorization_code"]?.stringValue,
              !preAuthorizationCode.isEmpty
        else { throw .malformedAnswer("no \"preauthorization_code\"") }
        guard let expiry = preAuthorization["exp"]?.dateValue else { throw .malformedAnswer("no numeric \"exp\"") }
        guard expiry > dependencies.clock.now() else { throw .preAuthorizationExpired }

        var consentURL = URLComponents(url: client.endpoint("consent"), resolvingAgainstBaseURL: false)
        consentURL?.queryItems = [URLQueryItem(name: "code", value: preAuthorizationCode)]
        guard let url = consentURL?.url else { throw .malformedAnswer("the pre-authorization code is not URL-safe") }
        let callback: URL
        do {
            callback = try await dependencies.consent.presentConsent(at: url, redirectURI: redirectURI)
        } catch {
            throw .consentUnavailable(String(describing: type(of: error)))
        }
        let code: String
        do {
            code = try AuthorizationCallback.code(from: callback, expectedRedirect: redirectURI, expectedState: state,
                                                  issuer: configuration.providerURL.absoluteString, issuerRequired: false)
        } catch .authorizationDenied(error: "access_denied", _) {
            throw .consentRefused
        } catch {
            throw .consentFailed(error)
        }

        let tokenAnswer = try await client.exchange("oauth/token", claims: [
            "grant_type": "authorization_code", "code": .string(code), "code_verifier": .string(verifier),
            "redirect_uri": .string(redirectURI.absoluteString),
        ], now: dependencies.clock.now())
        let token = try OngoingAccessClient.token(from: tokenAnswer)
        let session = try await openSession(token: token, scope: scope)
        return OngoingAccessAuthorization(session: session, oAuthToken: token, origin: .consent, refreshed: false)
    }

    /// Asks the provider to prepare the data `scope` allows, with `token`'s access token.
    private func openSession(token: OAuthToken, scope: OngoingAccessScope) async throws(OngoingAccessError)
        -> OngoingAccessSession
    {
        let payload = try await client.exchange("session", claims: [
            "access_token": .string(token.accessToken), "scope": scope.json,
        ], now: dependencies.clock.now())
        guard let key = payload["session_key"]?.stringValue, !key.isEmpty,
              let expires = payload["expires_on"]?.dateValue
        else { throw .malformedAnswer("no \"session_key\" with expires_on") }
        guard let granted = OngoingAccessScope(json: payload["scope"]) else { throw .malformedAnswer("no \"scope\"") }
        return OngoingAccessSession(key: key, scope: granted, expiresAt: expires)
    }
}
