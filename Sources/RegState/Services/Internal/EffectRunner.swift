import Foundation

/// Performs the effects that talk to the outside world (store, provider, backend) and answers with the event that
/// reports the result; it keeps no state (the shell feeds the answer back through the machine).
struct EffectRunner: Sendable {
    let configuration: RegStateConfiguration
    let dependencies: RegStateDependencies
    let tokens: TokenService
    let provider: OIDCClient
    let backend: (any RegistrationBackend)?
    /// The installation's DPoP key, nonces and signer (RFC 9449), shared with the provider client and the renewal.
    let dpop: DPoPContext
    /// The refresh-token grant's one flight.
    let renewal: RefreshTokenGrant
    /// This service's identifier as a device authorization's poller (from the crypto seam: a simulation replays it).
    let devicePollerID: String
    var logger: any RegStateLogger { dependencies.logger }

    init(configuration: RegStateConfiguration, dependencies: RegStateDependencies) {
        self.configuration = configuration
        self.dependencies = dependencies
        tokens = TokenService(store: dependencies.store, clock: dependencies.clock, crypto: dependencies.crypto,
                              gracePeriod: configuration.gracePeriod, binding: CredentialBinding(configuration.oidc),
                              holdPolicy: configuration.renewalHoldPolicy)
        let logger = dependencies.logger
        let clockEstimate = ProviderClockEstimate()
        let dpop = DPoPContext(mode: configuration.dpop, store: dependencies.store, crypto: dependencies.crypto,
                               clock: dependencies.clock, clockEstimate: clockEstimate)
        self.dpop = dpop
        let provider = OIDCClient(configuration: configuration.oidc, transport: dependencies.transport,
                                  crypto: dependencies.crypto, clock: dependencies.clock, clockEstimate: clockEstimate,
                                  onClockOffset: { offset in logger.log(.warning, ClockOffsetNote.sentence(offset)) },
                                  dpop: dpop)
        self.provider = provider
        renewal = RefreshTokenGrant(tokens: tokens, provider: provider, clock: dependencies.clock, dpop: dpop)
        devicePollerID = (try? dependencies.crypto.randomBytes(count: 12)).map(Base64URL.encode) ?? "poller"
        backend = dependencies.backend ?? configuration.backendURL.map { url -> any RegistrationBackend in
            HTTPRegistrationBackend(baseURL: url, transport: dependencies.transport,
                                    retiresSecurityTokens: configuration.backendRetiresSecurityTokens)
        }
    }

    var isNative: Bool { dependencies.platform.platform.isNative }

    func installNonNativeToken() async -> MachineEvent {
        do {
            try await tokens.installNonNativeToken(configuration.nonNativeAccessToken)
        } catch {
            logger.log(.error, "non-native token: \(error.localizedDescription)")
        }
        return .nonNativeTokenInstalled
    }

    /// The launch inspection, and the expired access token a launch renewal is to replace (never journaled).
    func inspectStoredTokens() async -> (event: MachineEvent, stale: SecretInput?) {
        if configuration.sessionSource == .host { _ = await tokens.migrateLegacyHostSession() }
        let inspected = await tokens.inspect()
        if case .nothing = inspected.status { await tokens.removeAbandonedProvisional(dpop: dpop) }
        return (.storedTokensInspected(inspected.status), inspected.expiredAccessToken.map(SecretInput.staleAccessToken))
    }

    /// This installation as the backend knows it.
    func installation() async throws(StoreError) -> InstallationInfo {
        let platform = dependencies.platform.platform
        return InstallationInfo(installationID: try await tokens.installationID(), platform: platform.type,
                                formFactor: platform.formFactor)
    }
}
