import Foundation
import Testing
@testable import RegState
import RegStateTesting
import RegStateSimulator

/// What a failed or abandoned registration, a logout or a final error removes is only ever what that attempt or
/// session itself wrote, decided under the store's lock: two services on one store (an app and its extension, or two
/// launches), one path fails or ends while the other has written.
@Suite("A session's end, a failed or abandoned registration remove only their own records")
struct SessionOwnershipTests {
    /// How the other service's session ends.
    enum End: String, CaseIterable, Sendable {
        case logout, forcedLogout, finalError
    }

    /// What the first service wrote after the shared session ended there.
    enum Written: String, CaseIterable, Sendable {
        /// A new registration awaiting confirmation (provisional tokens, the key promoted).
        case provisional
        /// A social login begun (its pending-login record).
        case pendingLogin
    }

    static func device() throws -> SimulatedDevice { try SimulatedDevice { $0.dpop = .allowed } }

    @Test("one service's session ends while the other has written since: the other's records stay and it carries on",
          arguments: End.allCases, Written.allCases)
    func endLeavesTheOthers(_ end: End, _ written: Written) async throws {
        let device = try Self.device()
        let first = try await device.registeredService()
        let second = device.launch()
        #expect(await second.start().letter == "B")
        // The shared session ends in the first service; it then writes its own.
        _ = try await first.logout()
        var loginURL: URL?
        switch written {
        case .provisional:
            try await device.signIn(first, as: "bob@example.com")
        case .pendingLogin:
            loginURL = try await first.beginSocialRegistration()
        }
        let records = try Self.records(device.store)
        // The second service, which still holds the ended session in memory, ends it now.
        switch end {
        case .logout: _ = try await second.logout()
        case .forcedLogout: try await second.handleForcedLogout()
        case .finalError:
            await device.simulator.setRefusesRefresh(true)
            _ = await second.renewSession()
            await device.simulator.setRefusesRefresh(false)
        }
        #expect(await second.state.session == nil, "the second service's session ended")
        #expect(try Self.records(device.store) == records, "nothing the first service wrote was removed or replaced")
        // And the first service carries on with what it wrote.
        switch written {
        case .provisional:
            try await first.confirmRegistration()
            #expect(await first.state.letter == "H")
        case .pendingLogin:
            let callback = try await device.simulator.authorize(try #require(loginURL), as: "bob@example.com")
            _ = try await first.completeSocialRegistration(callback: callback)
            #expect(await first.state.letter == "G")
        }
    }

    /// How a registration attempt in the other service is abandoned or fails.
    enum Abandon: String, CaseIterable, Sendable {
        /// A registration refused by the user at the provider (F).
        case denied
        /// A registration whose code exchange fails (F): the provider is down.
        case providerDown
    }

    @Test("provisional tokens awaiting confirmation survive another service's failed or abandoned registration",
          arguments: Abandon.allCases)
    func provisionalSurvives(_ abandon: Abandon) async throws {
        let device = try Self.device()
        let first = device.launch()
        await first.start()
        let second = device.launch()
        #expect(await second.start() == .registrationRequired)
        try await device.signIn(first, as: "alice@example.com")
        let records = try Self.records(device.store)
        switch abandon {
        case .denied:
            let url = try await second.beginSocialRegistration()
            await #expect(throws: (any Error).self) {
                _ = try await second.completeSocialRegistration(callback: try await device.simulator.deny(url))
            }
        case .providerDown:
            let url = try await second.beginSocialRegistration()
            let callback = try await device.simulator.authorize(url, as: "bob@example.com")
            await device.simulator.setProviderDown(true)
            await #expect(throws: (any Error).self) { _ = try await second.completeSocialRegistration(callback: callback) }
            await device.simulator.setProviderDown(false)
        }
        // The second attempt's own pending login is gone; everything the first one wrote is as it was.
        var after = try Self.records(device.store)
        after[PendingLogin.storeKey] = records[PendingLogin.storeKey]
        #expect(after == records)
        try await first.confirmRegistration()
        #expect(await first.state.letter == "H")
    }

    @Test("an abandoned registration's provisional tokens and DPoP key both go at the next launch")
    func abandonedRegistrationLeavesNoKey() async throws {
        let device = try Self.device()
        let abandoned = device.launch()
        await abandoned.start()
        try await device.signIn(abandoned, as: "alice@example.com")
        #expect(await abandoned.state.letter == "G")
        #expect(try device.store.data(forKey: DPoPKeyStore.recordKey) != nil, "the registration promoted its key")
        // The app dies on the confirmation page; the next launch finds the provisional tokens.
        let next = device.launch()
        #expect(await next.start() == .registrationRequired)
        let left = try Self.records(device.store).keys.filter { $0 != TokenService.installationKey }
        #expect(left.isEmpty, "left behind: \(left.sorted())")
        // And a registration from here starts clean and completes.
        try await device.signIn(next, as: "bob@example.com")
        try await next.confirmRegistration()
        #expect(await next.state.letter == "H")
    }

    /// Every record the store holds, byte for byte.
    static func records(_ store: InMemorySecureStore) throws -> [String: Data] {
        var all: [String: Data] = [:]
        for key in try store.keys() { all[key] = try store.data(forKey: key) }
        return all
    }
}
