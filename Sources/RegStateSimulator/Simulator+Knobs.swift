import Foundation
import RegState

/// Runtime knobs and administrative actions: what a test changes between two steps of a scenario.
extension Simulator {
    /// Takes the network away (`true`: every request throws `TransportError.offline`) or gives it back.
    public func setOffline(_ offline: Bool) { configuration.isOffline = offline }

    /// Puts the device behind a captive portal (every request answered `200` with a Wi-Fi sign-in page) or takes it
    /// out; see ``SimulatorConfiguration/behindCaptivePortal``.
    public func setBehindCaptivePortal(_ behind: Bool) { configuration.behindCaptivePortal = behind }

    /// Changes a user's display name at the provider (userinfo and later ID tokens say the new one), as a user who
    /// edits their account would; creates the user when unknown.
    public func renameUser(email: String, to name: String) {
        var user = world.users[email.lowercased()] ?? SimulatorUser(email: email, name: name)
        user.name = name
        world.users[user.email] = user
    }

    /// Makes every refresh-token grant answer `400 invalid_grant` (the provider's explicit refusal), or stops it.
    public func setRefusesRefresh(_ refuses: Bool) { configuration.refusesRefresh = refuses }

    /// Sets how a refresh token the provider will not renew is refused: RFC 6749's `400 invalid_grant`, or a bare
    /// status with an empty body (Glewlwyd's `400`).
    public func setRefreshRefusal(_ style: RefreshRefusalStyle) { configuration.refreshRefusal = style }

    /// Sets the scopes discovery lists (`nil`: no `scopes_supported`), and whether a request for another scope is
    /// refused with `invalid_scope` rather than the scope dropped.
    public func setScopesSupported(_ scopes: [String]?, refusingOthers: Bool = true) {
        configuration.scopesSupported = scopes
        configuration.refusesUnknownScopes = refusingOthers
    }

    /// Makes every provider endpoint answer `500 server_error` (a transient outage), or brings it back.
    public func setProviderDown(_ down: Bool) { configuration.providerDown = down }

    /// Makes every refresh grant answer a malformed `200` (or stops it); see
    /// ``SimulatorConfiguration/answersRefreshMalformed``.
    public func setAnswersRefreshMalformed(_ malformed: Bool) { configuration.answersRefreshMalformed = malformed }

    /// Makes refresh grants rotate (the default) or keep the presented refresh token; see
    /// ``SimulatorConfiguration/rotatesRefreshTokens``.
    public func setRotatesRefreshTokens(_ rotates: Bool) { configuration.rotatesRefreshTokens = rotates }

    /// Holds every request unanswered while `holds` is set (a stalled provider); clearing it lets them answer.
    public func setHoldsRequests(_ holds: Bool) { configuration.holdsRequests = holds }

    /// Sets the real-time delay before every answer, in seconds.
    public func setLatency(_ seconds: TimeInterval) { configuration.latency = max(0, seconds) }

    /// Sets the lifetimes of tokens issued from now on; `nil` leaves a lifetime as it is.
    ///
    /// - Parameters:
    ///   - accessToken: Seconds an access token is valid.
    ///   - idToken: Seconds an ID token is valid.
    ///   - otp: Seconds a one-time code is valid.
    ///   - securityToken: Seconds a backend security token is valid.
    public func setLifetimes(
        accessToken: TimeInterval? = nil, idToken: TimeInterval? = nil, otp: TimeInterval? = nil,
        securityToken: TimeInterval? = nil
    ) {
        if let accessToken { configuration.accessTokenLifetime = accessToken }
        if let idToken { configuration.idTokenLifetime = idToken }
        if let otp { configuration.otpLifetime = otp }
        if let securityToken { configuration.securityTokenLifetime = securityToken }
    }

    /// Sets the lifetime of refresh tokens issued from now on; `nil` means they never expire.
    public func setRefreshTokenLifetime(_ seconds: TimeInterval?) { configuration.refreshTokenLifetime = seconds }

    /// Sets how many installations one user may register; `nil` is unlimited.
    public func setMaxDevicesPerUser(_ limit: Int?) { configuration.maxDevicesPerUser = limit }

    /// Sets how many live security tokens one installation may hold; `nil` is unlimited.
    public func setMaxSecurityTokensPerDevice(_ limit: Int?) { configuration.maxSecurityTokensPerDevice = limit }

    /// Changes any knob at once. Scripted users added here join the world.
    ///
    /// Changing the issuer, client or backend URL behaves as such a change would at a real deployment: tokens
    /// issued before no longer verify against the new values.
    public func reconfigure(_ change: @Sendable (inout SimulatorConfiguration) -> Void) {
        change(&configuration)
        for user in configuration.users where world.users[user.email] == nil {
            world.users[user.email] = user
        }
    }

    /// Revokes every refresh-token family of `email`'s user (and the access tokens issued in them), as an
    /// administrator would; the next refresh answers `invalid_grant`.
    ///
    /// - Returns: How many families were revoked.
    /// - Throws: ``SimulatorError/worldUnwritable(_:)`` when the world is persisted and cannot be saved.
    @discardableResult
    public func revokeAllRefreshTokens(for email: String) throws -> Int {
        guard let subject = user(email: email)?.subject else { return 0 }
        let families = world.families.filter { $0.value.subject == subject && !$0.value.revoked }.keys
        for familyID in families { revokeFamily(familyID) }
        try persistIfChanged()
        return families.count
    }

    /// Logs every installation of `email`'s user out of the backend: the next backend request from each answers
    /// `403 FORCED_LOGOUT` once, and the installation is gone. Provider tokens are not touched.
    ///
    /// - Returns: How many installations were marked.
    /// - Throws: ``SimulatorError/worldUnwritable(_:)`` when the world is persisted and cannot be saved.
    @discardableResult
    public func forceLogout(email: String) throws -> Int {
        guard let subject = user(email: email)?.subject else { return 0 }
        let installations = world.installations.filter { $0.value.subject == subject }.keys
        for installationID in installations { world.installations[installationID]?.forcedLogout = true }
        try persistIfChanged()
        return installations.count
    }
}
