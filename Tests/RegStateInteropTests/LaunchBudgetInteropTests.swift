import Foundation
import RegState
import Testing
import RegStateTestSupport

extension InteropTests {
    /// Issue 19's launch budget against the real provider stopped with SIGSTOP (the kernel accepts the connection, the
    /// provider never answers): the launch must not wait for it. The elapsed time is printed as a figure, never
    /// asserted (no timing assertions in tests); what is asserted is that the launch settled while the provider was
    /// still stopped, which it could only do without its answer.
    @Suite("Launch budget against a stalled provider", .provider(.django))
    struct LaunchBudget {
        @Test("django stopped (SIGSTOP), expired token: launch settles Error E then Active B offline while it is stopped; after SIGCONT the same renewal lands, Active C, one grant")
        func stalledProviderLaunch() async throws {
            try await withPeer(.django) { peer in
                let device = InteropDevice(peer: peer, timeout: 60)
                _ = try await device.register()
                let refreshToken = try await device.storedRefreshToken()
                device.clock.advance(by: 3_601)
                peer.pause()
                let service = device.launch()
                let tape = await EventTape(service)
                let started = ContinuousClock.now
                let firstEvent = Task { _ = await tape.events(atLeast: 1); return ContinuousClock.now - started }
                let state = await service.start()
                let settled = ContinuousClock.now - started
                let first = await firstEvent.value
                print("figure: launch against django-oauth-toolkit stopped with SIGSTOP, launch budget \(device.configuration.launchBudget) s: first lettered event after \(first), start() returned after \(settled)")
                #expect(state.letter == "B")
                #expect(state.session?.connectivity == .offline(.noInternet))
                #expect(await tape.titles(atLeast: 2) == ["Error E", "Active B"])
                #expect(try await device.storedRefreshToken() == refreshToken, "nothing stored while the provider is stopped")
                peer.resume()
                await service.finishPendingRenewal()
                #expect(await service.state.letter == "C")
                #expect(await tape.titles(atLeast: 3) == ["Error E", "Active B", "Active C"])
                #expect(device.transport.refreshTokensSent == [refreshToken], "one refresh grant")
                #expect(try await device.storedRefreshToken() != refreshToken)
                tape.close()
            }
        }
    }
}
