import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// A simulated device whose engine runs with a chosen ``DPoPMode`` against a simulator enforcing DPoP.
struct DPoPDevice {
    let device: SimulatedDevice
    let mode: DPoPMode

    init(mode: DPoPMode = .whenOffered, simulator: SimulatorDPoPMode = .allowed,
         nonce: SimulatorDPoPNonce = .off) throws {
        device = try SimulatedDevice { $0.dpop = simulator; $0.dpopNonce = nonce }
        self.mode = mode
    }

    var simulator: Simulator { device.simulator }
    var store: InMemorySecureStore { device.store }
    var clock: ManualClock { device.clock }

    func launch() -> RegStateService {
        var configuration = device.configuration
        configuration.dpop = mode
        return RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: device.store, journal: device.journal, transport: device.simulator.transport, clock: device.clock,
            platform: SystemPlatformService(formFactor: "390x844"), logger: device.logger))
    }

    func registeredService() async throws -> RegStateService {
        let service = launch()
        await service.start()
        try await device.signIn(service)
        try await service.confirmRegistration()
        return service
    }

    /// The stored credentials record as JSON.
    func credentials() throws -> [String: JSONValue] {
        let data = try #require(try store.data(forKey: TokenService.credentialsKey))
        return try #require(try JSONValue.parse(data).objectValue)
    }

    func storedKey() throws -> DPoPKey? {
        try DPoPKeyStore(store: store, crypto: SystemCrypto()).load()
    }

    func transport(_ service: RegStateService) -> AuthorizedTransport {
        AuthorizedTransport(base: simulator.transport, service: service,
                            policy: TokenPolicy(validatingURLs: [DPoPEngineTests.resource]))
    }

    /// How many requests reached the token endpoint.
    func tokenRequests() async -> Int {
        await simulator.requestLog.filter { $0 == "POST /oauth/token" }.count
    }
}
