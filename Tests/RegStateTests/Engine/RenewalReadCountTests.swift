import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// A renewal reads the credentials record at most twice, counted through the storage seam
/// (``InMemorySecureStore/readCount(forKey:)``): once where a caller finds the token expired or rejected, once under
/// the store's lock before the grant. The renewed credential comes back from the renewal itself; nobody reads the
/// store again for it.
@Suite("A renewal reads the credentials record at most twice")
struct RenewalReadCountTests {
    static let key = TokenService.credentialsKey

    @Test("given an expired token, when the host asks for a token, then one grant and at most two reads")
    func expiredTokenAnswer() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        harness.clock.advance(by: 3600)
        await harness.simulator.resetCounters()
        let before = harness.store.readCount(forKey: Self.key)
        let token = try await service.validAccessToken().token
        let reads = harness.store.readCount(forKey: Self.key) - before
        #expect(await harness.simulator.refreshGrantCount == 1)
        #expect(reads <= 2, "the credentials record was read \(reads) times for one renewal")
        #expect(await service.state.letter == "C")
        #expect(await harness.storedAccessToken() == token, "the renewed token is the stored one")
    }

    @Test("given a token the server rejected, when it is reported, then one grant, at most two reads, the new token")
    func rejectedToken() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        let rejected = try await service.validAccessToken().token
        await harness.simulator.resetCounters()
        let before = harness.store.readCount(forKey: Self.key)
        let renewed = await service.tokenRejected(rejected)
        let reads = harness.store.readCount(forKey: Self.key) - before
        #expect(await harness.simulator.refreshGrantCount == 1)
        #expect(reads <= 2, "the credentials record was read \(reads) times for one renewal")
        #expect(renewed != nil && renewed != rejected)
        #expect(await harness.storedAccessToken() == renewed)
    }

    @Test("given an active session, when the host renews it, then one grant and at most two reads")
    func hostRenewal() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        await harness.simulator.resetCounters()
        let before = harness.store.readCount(forKey: Self.key)
        #expect(await service.renewSession().letter == "C")
        let reads = harness.store.readCount(forKey: Self.key) - before
        #expect(await harness.simulator.refreshGrantCount == 1)
        #expect(reads <= 2, "the credentials record was read \(reads) times for one renewal")
    }

    @Test("given an expired DPoP-bound token, when a credential is asked for, then one grant, at most two reads, still DPoP")
    func expiredBoundCredential() async throws {
        let device = try DPoPDevice(simulator: .required)
        let service = try await device.registeredService()
        device.clock.advance(by: 3600)
        let grants = await device.tokenRequests()
        let before = device.store.readCount(forKey: Self.key)
        let credential = try await service.validAccessToken()
        let reads = device.store.readCount(forKey: Self.key) - before
        #expect(reads <= 2, "the credentials record was read \(reads) times for one renewal")
        #expect(await device.tokenRequests() == grants + 1)
        #expect(credential.isDPoPBound)
        #expect(try device.credentials()["access_token"]?.stringValue == credential.token)
    }

    @Test("given a stored session that needs no renewal, when a relaunch settles and shows its binding and sign-in, then the record is read once")
    func statusReadsOnce() async throws {
        let device = try SimulatedDevice()
        _ = try await device.registeredService()
        let relaunched = device.launch()
        let before = device.store.readCount(forKey: Self.key)
        #expect(await relaunched.start().letter == "B")
        #expect(await relaunched.tokenBinding() == .bearer)
        #expect(await relaunched.signInAssurance()?.authenticatedAt != nil)
        let reads = device.store.readCount(forKey: Self.key) - before
        #expect(reads == 1, "`status` read the credentials record \(reads) times")
        try await relaunched.logout()
        #expect(await relaunched.tokenBinding() == .none)
        #expect(await relaunched.signInAssurance() == nil)
    }
}

extension SimulatedDevice {
    /// The stored access token, read the way the engine reads it.
    func storedAccessToken() async -> String? {
        await TokenService(store: store, clock: clock).snapshot()?.accessToken
    }
}
