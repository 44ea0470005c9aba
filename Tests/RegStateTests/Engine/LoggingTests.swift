import Foundation
import Testing
@testable import RegState
import RegStateTesting

@Suite("What the engine logs")
struct LoggingTests {
    @Test("a registration, a renewal and a logout log their lettered events and never a token")
    func logsLettersNeverTokens() async throws {
        let device = try SimulatedDevice()
        let service = try await device.registeredService()
        let tokens = TokenService(store: device.store, clock: device.clock)
        var secrets = [await tokens.snapshot()?.accessToken, await tokens.snapshot()?.refreshToken, await tokens.snapshot()?.idToken].compactMap { $0 }
        device.clock.advance(by: 7200)
        _ = try await service.validAccessToken().token
        secrets += [await tokens.snapshot()?.accessToken, await tokens.snapshot()?.refreshToken].compactMap { $0 }
        try await service.logout()
        #expect(secrets.count == 5)
        let messages = device.logger.messages()
        #expect(device.logger.messages(atLeast: .info) == ["Registration Required D", "Awaiting Confirmation G", "Active H",
                                                           "Active C", "Registration Required D"])
        #expect(messages.contains("renewalRequested -> active"))
        for message in messages {
            for secret in secrets { #expect(!message.contains(secret), "a token in the log: \(message.prefix(40))") }
        }
    }
}
