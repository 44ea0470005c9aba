import Foundation

/// Sign in on another device: the device authorization grant (RFC 8628) for a device without a browser. The device
/// shows a short code; the user approves on a phone or a laptop.
extension RegStateService {
    /// Starts a sign-in on another device from **D** (or takes up the one pending in the store; never two at once):
    /// what to show, also announced as ``RegStateEvent/awaitingUser(_:)``. Then ``completeDeviceRegistration()``.
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**), e.g.
    ///   ``RegistrationFailure/grantNotOffered(_:)``; ``RegStateServiceError/rejected(_:)`` when
    ///   registration cannot start in the current state.
    public func beginDeviceRegistration() async throws(RegStateServiceError) -> DeviceVerification {
        let applied = try await apply(.registrationRequested(.device))
        try Self.throwIfRefused(applied)
        guard let shown = applied.deviceVerification else { throw .registration(.noPendingLogin) }
        return shown
    }

    /// Waits while the user approves on the other device (after a relaunch too), then returns the profile to confirm
    /// (**G**).
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**), for example ``RegistrationFailure/codeExpired``;
    ///   ``RegStateServiceError/cancelled``; ``RegStateServiceError/storage(_:)`` (a locked device: nothing changed).
    @discardableResult
    public func completeDeviceRegistration() async throws(RegStateServiceError) -> Profile {
        if case .authenticating(.device) = state {} else {
            guard try await readPendingDeviceRegistration() != nil else { throw .registration(.noPendingLogin) }
            _ = try await beginDeviceRegistration()
        }
        let applied = try await apply(.credentialsSubmitted)
        if let failure = applied.registrationFailure { throw .registration(failure) }
        for case .authenticated(let stored) in applied.events { return stored.profile }
        // Another caller's poll ran (this one waited for it), or the app cancelled: the state says which.
        switch state {
        case .awaitingConfirmation(let profile): return profile
        case .failed(.registration(let failure)): throw .registration(failure)
        case .unsettled, .registrationRequired, .authenticating, .active, .failed: throw .cancelled
        }
    }

    /// Cancels the sign-in on another device: the polling stops, the authorization is forgotten, back to **D**.
    public func cancelDeviceRegistration() async {
        if case .authenticating(.device) = state, (try? await apply(.retryRequested)) != nil { return }
        if let pending = await pendingDeviceRegistration() { await grants.discardDevice(userCode: pending.userCode) }
    }

    /// What to show for the unexpired sign-in on another device pending in the store; `nil` when none (or unreadable).
    public func pendingDeviceRegistration() async -> DeviceVerification? {
        (try? await readPendingDeviceRegistration()) ?? nil
    }

    /// ``pendingDeviceRegistration()``, throwing ``RegStateServiceError/storage(_:)`` when the store cannot be read.
    func readPendingDeviceRegistration() async throws(RegStateServiceError) -> DeviceVerification? {
        let stored: PendingDeviceAuthorization?
        do {
            stored = try await runner.tokens.pending(PendingDeviceAuthorization.self)
        } catch {
            throw .storage(error)
        }
        guard let pending = stored, !pending.hasExpired(at: clock.now()) else { return nil }
        return pending.verification
    }
}
