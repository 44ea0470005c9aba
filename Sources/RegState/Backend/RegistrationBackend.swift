import Foundation

/// The registration backend, behind a protocol so apps can inject their own (or a test double).
///
/// `HTTPRegistrationBackend` implements the HTTP contract the simulator serves. Every method throws
/// ``BackendError``; a `401` on an authenticated call is ``BackendError/unauthorized`` (renew the security token and
/// retry once) and `403 FORCED_LOGOUT` is ``BackendError/forcedLogout``.
public protocol RegistrationBackend: Sendable {
    /// Exchanges a validated ID token for a security token bound to this installation.
    ///
    /// - Throws: ``BackendError/invalidIDToken``, ``BackendError/tooManyRegisteredDevices``,
    ///   ``BackendError/maxSecurityTokens``, ``BackendError/forcedLogout``, and transport or status errors.
    func securityToken(idToken: String, installation: InstallationInfo) async throws(BackendError) -> SecurityTokenGrant

    /// Whether the user is registered with the backend, and the profile it holds.
    func registration(securityToken: String) async throws(BackendError) -> RegistrationStatus

    /// Stores the confirmed profile and how the user registered; from then on the user is registered.
    func updateProfile(_ profile: Profile, registrationType: RegistrationType, securityToken: String)
        async throws(BackendError)

    /// Check Registration: the backend asks the provider's userinfo with the access token (so the token is
    /// checked where it was issued) and answers with the profile it picked up and whether the user is registered.
    /// A backend without it throws ``BackendError/unexpectedStatus(_:code:)`` 404 (the default).
    func checkRegistration(accessToken: String) async throws(BackendError) -> RegistrationStatus
    /// Removes this installation and its security tokens (logout), freeing a device slot.
    func deleteInstallation(securityToken: String) async throws(BackendError)
    /// The installations registered for the user of `credential` (a security token, or the user's ID token when
    /// the device has none yet, as at the device limit). A backend without a device list throws
    /// ``BackendError/unexpectedStatus(_:code:)`` 404 (the default).
    func devices(credential: String) async throws(BackendError) -> [RegisteredDevice]
    /// Removes one of the user's installations (and its security tokens), freeing a device slot.
    func removeDevice(id: String, credential: String) async throws(BackendError)
    /// Retires `securityToken`, which a renewal has replaced, so that it stops counting against the installation's
    /// limit of live tokens. A backend without it throws ``BackendError/unexpectedStatus(_:code:)`` 404 (the
    /// default), and the token lives there until it expires.
    func retireSecurityToken(_ securityToken: String) async throws(BackendError)
}

extension RegistrationBackend {
    /// No Check Registration: 404 `check_registration_unsupported`.
    public func checkRegistration(accessToken: String) async throws(BackendError) -> RegistrationStatus {
        throw .unexpectedStatus(404, code: "check_registration_unsupported")
    }

    /// No device list: 404 `devices_unsupported`.
    public func devices(credential: String) async throws(BackendError) -> [RegisteredDevice] {
        throw .unexpectedStatus(404, code: "devices_unsupported")
    }

    /// No device list: 404 `devices_unsupported`.
    public func removeDevice(id: String, credential: String) async throws(BackendError) {
        throw .unexpectedStatus(404, code: "devices_unsupported")
    }

    /// No retirement: 404 `retire_unsupported`.
    public func retireSecurityToken(_ securityToken: String) async throws(BackendError) {
        throw .unexpectedStatus(404, code: "retire_unsupported")
    }
}
