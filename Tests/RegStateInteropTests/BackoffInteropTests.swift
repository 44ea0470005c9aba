import Foundation
import RegState
import Testing
import RegStateTestSupport

extension InteropTests.Outage {
    /// The most attempts `elapsed` seconds of a chain can hold if every delay were the shortest the jitter allows
    /// (80 % of 1 s × 1.6ⁿ, at most 300 s), plus the first attempt.
    static func backoffBound(elapsed: TimeInterval) -> Int {
        var attempts = 1, nominal = 1.0, time = 0.8
        while time <= elapsed {
            attempts += 1
            nominal = min(nominal * 1.6, 300)
            time += nominal * 0.8
        }
        return attempts
    }

    /// Issue 46 against a real provider: an app that calls every second through a ten-minute outage costs one attempt
    /// per backoff step, and once django-oauth-toolkit is back it receives one refresh-token grant, not a burst. One
    /// provider start, about 14 connection attempts and one grant: a few seconds of CI.
    @Test("django: stopped, called every second for ten minutes: one attempt per backoff step; back: one grant, Active C")
    func backoffThroughOutage() async throws {
        try await withPeer(.django) { peer in
            let device = InteropDevice(peer: peer)
            _ = try await device.register()
            let refreshToken = try await device.storedRefreshToken()
            await peer.terminate()
            device.useTimeout(5)
            device.clock.advance(by: 3_601)
            let service = device.launch()
            let before = device.transport.requests.count
            #expect(await service.start().session?.connectivity.isOffline == true)
            for _ in 0..<600 {
                device.clock.advance(by: 1)
                await #expect(throws: RegStateServiceError.self) { try await service.validAccessToken() }
            }
            let attempts = device.transport.requests.count - before
            #expect(attempts <= Self.backoffBound(elapsed: 601), "\(attempts) requests for 601 calls")
            #expect(attempts >= 5, "the backoff grows, it does not stop: \(attempts)")

            try await peer.restart()
            device.useTimeout(nil)
            let grantsBefore = device.transport.refreshTokensSent.count
            var renewed = false
            for _ in 0..<400 where !renewed {
                device.clock.advance(by: 1)
                renewed = (try? await service.validAccessToken()) != nil
            }
            #expect(renewed, "back within the longest hold")
            #expect(await service.state.letter == "C")
            #expect(device.transport.refreshTokensSent.count - grantsBefore == 1, "one grant once it is back")
            #expect(try await device.storedRefreshToken() != refreshToken)
            #expect(try await peer.refreshTokenLedger() == .init(issued: 2, revoked: 1), "the provider saw one rotation")
        }
    }
}
