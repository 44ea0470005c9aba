import Foundation

/// Sign in on another device: the device authorization grant (RFC 8628) for a device without a browser (a CLI over
/// SSH, a TV, a console). The device shows a short code; the user approves on a phone or a laptop.
extension RegStateService {
    /// Starts a sign-in on another device from **D** (or after an error), or takes up the one pending in the secure
    /// store (begun before a relaunch, or by another process sharing the store): returns what to show, which the
    /// event stream announces too (``RegStateEvent/signInOnAnotherDevice(_:)``). Then call
    /// ``completeDeviceRegistration()`` to wait for the approval.
    ///
    /// Never two at once: while one is pending and unexpired, every call (in any process sharing the store) gets that
    /// one's code.
    ///
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**), for example
    ///   ``RegistrationFailure/grantNotOffered(_:)``; ``RegStateServiceError/rejected(_:)`` when registration
    ///   cannot start in the current state (a session is active, say).
    public func beginDeviceRegistration() async throws(RegStateServiceError) -> DeviceVerification {
        let applied = try await apply(.registrationRequested(.device))
        try Self.throwIfRefused(applied)
        guard let shown = applied.deviceVerification else { throw .registration(.noPendingLogin) }
        return shown
    }

    /// Waits while the user approves on the other device, polling the token endpoint no faster than the provider
    /// allows, then validates the ID token, stores provisional tokens and returns the profile to confirm (**G**).
    ///
    /// After a relaunch (in **D**) it takes up the authorization the store keeps, until its code expires.
    ///
    /// - Throws: ``RegStateServiceError/registration(_:)`` (**F**): ``RegistrationFailure/authorizationDenied(error:description:)``
    ///   (`access_denied`), ``RegistrationFailure/deviceCodeExpired``, ``RegistrationFailure/noPendingLogin`` when
    ///   none is pending, the checks of the tokens; ``RegStateServiceError/cancelled`` when the app cancelled it
    ///   (``cancelDeviceRegistration()``); ``RegStateServiceError/storage(_:)`` when the store cannot be read now (a
    ///   locked device: nothing changed, call again once it is unlocked).
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

    /// Cancels the sign-in on another device: the polling stops at once, the authorization is forgotten (here and in
    /// the store), back to **D**. Also forgets one kept from before a relaunch.
    public func cancelDeviceRegistration() async {
        if case .authenticating(.device) = state, (try? await apply(.retryRequested)) != nil { return }
        if let pending = await pendingDeviceRegistration() {
            await loginGrants.discardDevice(userCode: pending.userCode)
        }
    }

    /// The sign-in on another device pending in the secure store and not expired (begun by this process, before a
    /// relaunch, or by another process sharing the store): what to show; `nil` when there is none, or when the store
    /// cannot be read now (a locked device).
    public func pendingDeviceRegistration() async -> DeviceVerification? {
        (try? await readPendingDeviceRegistration()) ?? nil
    }

    /// ``pendingDeviceRegistration()``, throwing ``RegStateServiceError/storage(_:)`` when the store cannot be read
    /// now (a locked device) instead of answering "none".
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
