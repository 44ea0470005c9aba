import Foundation
import Testing
import RegState
import RegStateTesting
import RegStateSimulator

/// Seed 000: a user logout happens only online — also when the security token has expired (found by the simulation,
/// seed 6: the logout cleared the session without reaching any server).
@Suite("Host mode: a user logout needs a connection")
struct HostLogoutTests {
    @Test("Given an expired security token, when the user logs out offline, then nothing changes")
    func expiredSecurityTokenOffline() async throws {
        let app = try HostApp()
        let service = try await app.launchPastSecurityTokenExpiry()
        await app.device.simulator.setOffline(true)
        await #expect(throws: RegStateServiceError.offline(.noInternet)) { try await service.logout(.userRequested) }
        #expect(await service.state.session != nil)
        #expect(try app.store.keys().contains("credentials"))
    }

    @Test("Given an expired security token, when the user logs out online, then the backend is told and the session ends")
    func expiredSecurityTokenOnline() async throws {
        let app = try HostApp()
        let service = try await app.launchPastSecurityTokenExpiry()
        try await service.logout(.userRequested)
        #expect(await service.state == .registrationRequired)
        #expect(await app.device.simulator.requestLog.contains { $0.hasPrefix("DELETE ") && $0.contains("/v1/installation") })
    }
}
