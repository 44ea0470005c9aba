import Foundation
import RegState
import RegStateTesting
import Testing

/// The engine on a locked device (issue 28): the Keychain refuses every item call with `interactionNotAllowed`
/// (RegStateTesting's `KeychainDouble`, paired with the App Group lock), which is never a logout.
@Suite("Engine on a locked device")
struct LockedDeviceEngineTests {
    @Test("Given an active session whose token expired, when renewals meet a locked device, then each call fails with a storage error and no grant, the session stays Active, and after the unlock one grant renews it")
    func lockedDeviceDefersRenewal() async throws {
        let harness = try EngineHarness()
        try await withStorageScratch { scratch in
            let items = try KeychainDouble(directory: scratch.appendingPathComponent("keychain"))
            let store = LockedSecureStore(items: items, lock: FileStoreLock(url: scratch.appendingPathComponent(".lock")))
            let journal = InMemoryJournal()
            func launch() -> RegStateService {
                RegStateService(configuration: harness.configuration, dependencies: RegStateDependencies(
                    store: store, journal: journal, transport: harness.simulator.transport, clock: harness.clock))
            }
            let service = launch()
            await service.start()
            try await harness.signIn(service)
            try await service.confirmRegistration()
            let stored = try #require(try items.data(forKey: "credentials"))
            let grants = await harness.simulator.refreshGrantCount

            harness.clock.advance(by: 3600)
            try items.setDeviceLocked(true)
            for _ in 0..<2 {
                do {
                    _ = try await service.validAccessToken().token
                    Issue.record("a token was handed out from a locked device")
                } catch {
                    #expect("\(error)".contains("storage"), "got: \(error)")
                }
                guard case .active = await service.state else {
                    Issue.record("not active on a locked device: \(await service.state)"); return
                }
            }
            // Another process launching on the locked device cannot read the session: E with a storage reason, nothing removed.
            let extensionProcess = launch()
            guard case .failed(.renewal(.storage)) = await extensionProcess.start() else {
                Issue.record("a launch on a locked device is not a storage failure: \(await extensionProcess.state)"); return
            }
            #expect(await harness.simulator.refreshGrantCount == grants)
            try items.setDeviceLocked(false)
            #expect(try items.data(forKey: "credentials") == stored, "nothing changed while the device was locked")

            #expect(!(try await service.validAccessToken().token).isEmpty)
            #expect(!(try await extensionProcess.validAccessToken().token).isEmpty)
            #expect(await harness.simulator.refreshGrantCount == grants + 1, "one grant for both processes")
            #expect(await service.state.letter == "C")
        }
    }
}

/// Logout on a locked device (issue 41, keychain seeds 8290000867, 8290001232, 8290003819): the record that cannot be
/// read is not "no refresh token".
@Suite("Engine on a locked device: logout")
struct LockedDeviceLogoutTests {
    @Test("Given an active session, when the user logs out on a locked device, then the call fails with a storage error, nothing reaches a server, the session stays Active with its record, and after the unlock the logout revokes it")
    func lockedDeviceRefusesLogout() async throws {
        let harness = try EngineHarness()
        try await withStorageScratch { scratch in
            let items = try KeychainDouble(directory: scratch.appendingPathComponent("keychain"))
            let store = LockedSecureStore(items: items, lock: FileStoreLock(url: scratch.appendingPathComponent(".lock")))
            let service = RegStateService(configuration: harness.configuration, dependencies: RegStateDependencies(
                store: store, journal: InMemoryJournal(), transport: harness.simulator.transport, clock: harness.clock))
            await service.start()
            try await harness.signIn(service)
            try await service.confirmRegistration()
            let stored = try #require(try items.data(forKey: "credentials"))
            let revocations = await harness.simulator.revokedTokenCount

            try items.setDeviceLocked(true)
            do {
                let result = try await service.logout()
                Issue.record("a logout on a locked device claimed \(result.result)")
            } catch {
                guard case .storage? = error as? RegStateServiceError else { Issue.record("not a storage error: \(error)"); return }
            }
            guard case .active = await service.state else {
                Issue.record("a locked device ended the session: \(await service.state)"); return
            }
            #expect(await harness.simulator.revokedTokenCount == revocations, "nothing reached the provider")
            try items.setDeviceLocked(false)
            #expect(try items.data(forKey: "credentials") == stored, "nothing changed while the device was locked")

            #expect(try await service.logout().result == .revoked)
            #expect(try items.data(forKey: "credentials") == nil)
        }
    }
}
