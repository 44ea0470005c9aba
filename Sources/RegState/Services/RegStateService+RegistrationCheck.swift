import Foundation

extension RegStateService {
    /// Check Registration: the backend checks the registration with the stored access token (Bearer only, to the
    /// configured backend only), and the stored profile is refreshed from the claims it picked up when their `sub` is
    /// the stored ID token's. Nothing about the profile is journaled or logged.
    ///
    /// - Returns: whether the backend holds the registration, and the profile as now stored.
    /// - Throws: ``RegStateServiceError/registrationCheck(_:)`` (``RegistrationCheckError/subjectMismatch`` when the
    ///   profile is another user's: nothing changes); ``RegStateServiceError/noSession``;
    ///   ``RegStateServiceError/backend(_:)`` when the backend refused or could not be reached, and
    ///   ``BackendError/rateLimited(retryAfter:)`` at once (nothing sent) while its `Retry-After` or a failed
    ///   security-token exchange's backoff holds.
    public func checkRegistration() async throws(RegStateServiceError) -> RegistrationCheck {
        guard case .active(let session) = state, session.activation != .nonNative, !session.isHostDriven,
              let profile = session.profile else { throw .noSession }
        return try await RegistrationChecker(runner: runner).check(profile)
    }

    /// Whether this launch runs Check Registration: a session settled online, a backend, not turned off.
    var checksRegistrationNow: Bool {
        guard runner.backend != nil, runner.configuration.checksRegistrationAtLaunch != false,
              runner.configuration.sessionSource == .selfRenewing || runner.configuration.checksRegistrationAtLaunch == true,
              case .active(let session) = state, session.connectivity == .online, session.activation != .nonNative,
              !session.isHostDriven, !session.renewalPending
        else { return false }
        return true
    }

    /// The launch's Check Registration, its failure logged.
    func checkRegistrationResult() async -> Result<RegistrationCheck, RegStateServiceError> {
        do {
            return .success(try await checkRegistration())
        } catch {
            logger.log(.info, "check registration: \(error.errorDescription ?? "failed")")
            return .failure(error)
        }
    }

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
