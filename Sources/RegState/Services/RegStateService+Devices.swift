import Foundation

extension RegStateService {
    /// The installations registered with the backend for this user: what to offer for removal after
    /// ``BackendError/tooManyRegisteredDevices``. Authenticated with this installation's security token, or the ID
    /// token when there is none yet (kept in memory after a registration refused at the device limit).
    ///
    /// - Throws: ``RegStateServiceError/backend(_:)``: ``BackendError/unauthorized`` when nothing to authenticate
    ///   with is stored, `unexpectedStatus(404, "devices_unsupported")` without a backend or a device list.
    public func registeredDevices() async throws(RegStateServiceError) -> [RegisteredDevice] {
        do {
            let (backend, credential) = try await deviceAccess()
            return try await backend.devices(credential: credential)
        } catch {
            throw .backend(error)
        }
    }

    /// Removes one of the user's installations at the backend (its security tokens end with it), freeing a slot.
    ///
    /// - Throws: ``RegStateServiceError/backend(_:)``: ``BackendError/invalidPathSegment(_:)`` for an ID that cannot
    ///   be one URL path segment, before anything else; otherwise the errors of ``registeredDevices()``.
    public func removeDevice(id: String) async throws(RegStateServiceError) {
        do {
            _ = try URLPathSegment.encoded(id)
        } catch {
            throw .backend(.invalidPathSegment(error))
        }
        do {
            let (backend, credential) = try await deviceAccess()
            try await backend.removeDevice(id: id, credential: credential)
        } catch {
            throw .backend(error)
        }
    }

    private func deviceAccess() async throws(BackendError) -> (any RegistrationBackend, String) {
        guard let backend = runner.backend else { throw .unexpectedStatus(404, code: "devices_unsupported") }
        let snapshot = await runner.tokens.snapshot()
        let deviceList = await grants.deviceListIDToken
        guard let credential = snapshot?.securityToken ?? snapshot?.idToken ?? deviceList else { throw .unauthorized }
        return (backend, credential)
    }
}
