import Foundation

/// The device authorization request (RFC 8628 §3.1) and the checks of its answer (§3.2).
extension DeviceAuthorizationGrant {
    /// The longest `user_code` and `device_code` taken: a longer one is not an answer this grant understands.
    static let maximumCodeLength = 512
    /// The longest lifetime a device code is held for, whatever `expires_in` says (a day).
    static let maximumLifetime: TimeInterval = 86_400

    /// Where the request goes: discovery's `device_authorization_endpoint`, else the configured one if `https` (or
    /// loopback); ``OIDCError/grantNotOffered(_:)`` without either, ``OIDCError/insecureURL(_:)`` for a plain one.
    func endpoint() async throws(OIDCError) -> URL {
        if let announced = try await provider.metadata().deviceAuthorizationEndpoint { return announced }
        guard let configured = configuration.deviceAuthorizationEndpoint else { throw .grantNotOffered(.deviceAuthorization) }
        guard TransportSecurity.allows(configured) else { throw .insecureURL("device authorization endpoint") }
        return configured
    }

    /// Asks for a device code and a user code, and checks the answer; the record to store.
    func requestAuthorization(dpopKeyThumbprint: String?) async throws(OIDCError) -> PendingDeviceAuthorization {
        let url = try await endpoint()
        let supported = try await provider.metadata().scopesSupported
        let scope = configuration.requestedScopes(supported: supported).joined(separator: " ")
        let request = HTTPRequest.form(url: url, parameters: [("client_id", configuration.clientID), ("scope", scope)])
        let response = try await ResponseReading.send(request, over: provider.transport)
        let receivedAt = clock.now()
        let object = try ResponseReading.jsonObject(response, what: "device authorization response")
        let binding = CredentialBinding(configuration)
        let verification = try Self.verification(object, receivedAt: receivedAt)
        return PendingDeviceAuthorization(
            deviceCode: try Self.code(object["device_code"], name: "device_code"), verification: verification,
            issuer: binding.issuer, clientID: binding.clientID, dpopKeyThumbprint: dpopKeyThumbprint,
            createdAt: receivedAt, notBefore: receivedAt)
    }

    /// What to show, from the answer: `user_code`, `verification_uri` (and `verification_uri_complete`) that are
    /// `https` (or loopback), `expires_in` above zero, `interval` (5 s when absent, at least 1 s).
    static func verification(_ object: [String: JSONValue], receivedAt: Date) throws(OIDCError) -> DeviceVerification {
        let userCode = try code(object["user_code"], name: "user_code")
        let uri = try pageURL(object["verification_uri"], name: "verification_uri")
        let complete = object["verification_uri_complete"] == nil || object["verification_uri_complete"] == .null
            ? nil : try pageURL(object["verification_uri_complete"], name: "verification_uri_complete")
        guard let lifetime = object["expires_in"]?.lifetimeValue, lifetime > 0 else {
            throw .malformedResponse("the device authorization response has no usable expires_in")
        }
        var interval = PendingDeviceAuthorization.defaultInterval
        if let member = object["interval"], member != .null {
            guard let seconds = member.lifetimeValue, seconds <= maximumLifetime else {
                throw .malformedResponse("the device authorization response's interval is not a number of seconds")
            }
            interval = max(seconds, 1)
        }
        return DeviceVerification(userCode: userCode, verificationURI: uri, verificationURIComplete: complete,
                                  expiresAt: receivedAt.addingTimeInterval(min(lifetime, maximumLifetime)),
                                  interval: interval)
    }

    private static func code(_ value: JSONValue?, name: String) throws(OIDCError) -> String {
        guard let text = value?.stringValue, !text.isEmpty, text.utf8.count <= maximumCodeLength else {
            throw .malformedResponse("the device authorization response has no usable \(name)")
        }
        return text
    }

    private static func pageURL(_ value: JSONValue?, name: String) throws(OIDCError) -> URL {
        guard let text = value?.stringValue, let url = URL(string: text), url.host != nil,
              ["https", "http"].contains(url.scheme?.lowercased() ?? "")
        else { throw .malformedResponse("the device authorization response has no usable \(name)") }
        guard TransportSecurity.allows(url) else { throw .insecureURL(name) }
        return url
    }
}
