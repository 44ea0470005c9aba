import Foundation

/// The device authorization grant's two effects: started (or taken up from the store), and polled until it yields
/// tokens, which then pass the checks every grant's tokens pass (``authenticate(with:nonce:type:proofKey:stillWanted:)``).
extension EffectRunner {
    /// The grant, over this runner's provider client, token service and clock.
    var deviceGrant: DeviceAuthorizationGrant {
        DeviceAuthorizationGrant(provider: provider, tokens: tokens, clock: dependencies.clock, logger: logger,
                                 configuration: configuration.oidc, pollerID: devicePollerID)
    }

    /// What to show for the device authorization pending in the store, or for a new one; or why there is none.
    func startDeviceAuthorization() async -> Result<DeviceVerification, RegistrationFailure> {
        await deviceGrant.begin { () async throws(OIDCError) -> DPoPKey? in try await keyForNewRegistration() }
            .map(\.verification)
    }

    /// Polls the stored device authorization until it yields tokens (validated and stored provisionally: **G**) or
    /// ends (**F**); `nil` when the poll was cancelled or the user moved on (`stillWanted`).
    func pollDeviceAuthorization(stillWanted: @Sendable () async -> Bool) async -> MachineEvent? {
        let stored: PendingDeviceAuthorization?
        do {
            stored = try await tokens.pendingDeviceAuthorization()
        } catch {
            // A locked device refused the read: a recoverable storage failure, not "none pending".
            return .registrationFailed(.storage(error.localizedDescription))
        }
        guard let record = stored else { return .registrationFailed(.noPendingLogin) }
        let key: DPoPKey?
        do {
            key = try registrationKey()
        } catch {
            return .registrationFailed(RegistrationFailure(error))
        }
        // The key the tokens are to be bound to must still be the installation's registration key.
        if record.dpopKeyThumbprint != nil, key?.thumbprint != record.dpopKeyThumbprint {
            return .registrationFailed(.pendingLoginSuperseded)
        }
        switch await deviceGrant.poll(from: record, proofKey: key) {
        case .stopped:
            return nil
        case .failed(let failure):
            return .registrationFailed(failure)
        case .tokens(let response):
            return await authenticate(with: response, nonce: nil, type: .social, proofKey: key, stillWanted: stillWanted)
        }
    }

    /// Forgets the stored device authorization with `userCode` (the app cancelled it, or the attempt ended); one
    /// another process began since is left alone.
    func discardDeviceAuthorization(userCode: String) async {
        await deviceGrant.discard(userCode: userCode)
    }
}
