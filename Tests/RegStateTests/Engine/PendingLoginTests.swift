import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// A device whose engine keeps its store and journal on disk, so that "the app was killed" is: drop the service
/// instance, build a new one on the same files (the simulated world and its clock go on).
struct FileStoreDevice {
    let world: SimulatedDevice
    let directory: URL
    var dpop: DPoPMode = .whenOffered

    init(configure: (inout SimulatorConfiguration) -> Void = { _ in }) throws {
        world = try SimulatedDevice(configure: configure)
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("regstate-pending-\(UUID().uuidString)", isDirectory: true)
    }

    var simulator: Simulator { world.simulator }
    var clock: ManualClock { world.clock }
    var secure: URL { directory.appendingPathComponent("secure", isDirectory: true) }
    var recordURL: URL { secure.appendingPathComponent(PendingLogin.storeKey) }

    /// A fresh app launch: a new service over the same files.
    func launch(transport: (any HTTPTransport)? = nil) throws -> RegStateService {
        var dependencies = try RegStateDependencies.onDisk(at: directory, transport: transport ?? simulator.transport)
        dependencies.clock = clock
        dependencies.logger = world.logger
        dependencies.platform = SystemPlatformService(formFactor: "390x844")
        var configuration = world.configuration
        configuration.dpop = dpop
        return RegStateService(configuration: configuration, dependencies: dependencies)
    }

    /// The stored pending-login record, decoded.
    func record() throws -> PendingLogin? {
        guard let data = FileManager.default.contents(atPath: recordURL.path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(PendingLogin.self, from: data)
    }

    /// The journal file's text.
    func journalText() -> String {
        let data = FileManager.default.contents(atPath: directory.appendingPathComponent("journal.log").path)
        return String(decoding: data ?? Data(), as: UTF8.self)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

@Suite("A social login survives a relaunch")
struct PendingLoginTests {
    @Test("Given a social login begun and the app killed, when a fresh service gets the redirect, then it registers, and the same redirect again is refused")
    func survivesRelaunch() async throws {
        let device = try FileStoreDevice()
        defer { device.remove() }
        var first: RegStateService? = try device.launch()
        #expect(await first?.start() == .registrationRequired)
        let url = try #require(try await first?.beginSocialRegistration())
        first = nil                                                      // killed while the user is in the browser

        // The login is in the secure store, 0600, and nowhere in the journal.
        let record = try #require(try device.record())
        #expect(record.request.url == url)
        let mode = try FileManager.default.attributesOfItem(atPath: device.recordURL.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let journal = device.journalText()
        for secret in [record.request.state, record.request.nonce, record.request.codeVerifier] {
            #expect(!journal.contains(secret))
        }

        let callback = try await device.simulator.authorize(url, as: "alice@example.com")
        let relaunched = try device.launch()
        #expect(await relaunched.start() == .registrationRequired)
        let pending = try #require(await relaunched.pendingSocialLogin())
        #expect(pending.authorizationURL == url)
        #expect(pending.startedAt == record.createdAt)
        #expect(pending.expiresAt == record.createdAt.addingTimeInterval(600))
        #expect(!pending.isExpired)
        #expect(!"\(pending)".contains(record.request.state))

        let profile = try await relaunched.completeSocialRegistration(callback: callback)
        #expect(profile.email == "alice@example.com")
        #expect(try device.record() == nil, "the login is taken with its redirect")
        #expect(await relaunched.pendingSocialLogin() == nil)
        // The same redirect again: refused, typed, nothing changes.
        await #expect(throws: RegStateServiceError.registration(.noPendingLogin)) {
            try await relaunched.completeSocialRegistration(callback: callback)
        }
        #expect(try await relaunched.confirmRegistration().activation == .registered)
        let names = try await relaunched.journalEntries().map(\.event.name)
        #expect(names.contains("pendingLoginResumed"))
        #expect(try await relaunched.journalFold() == (await relaunched.state))

        // And in yet another process after the registration.
        let third = try device.launch()
        #expect(await third.start().letter == "B")
        await #expect(throws: RegStateServiceError.registration(.noPendingLogin)) {
            try await third.completeSocialRegistration(callback: callback)
        }
        #expect(await third.state.letter == "B")
    }

    @Test("Given a pending login older than ten minutes, when its redirect arrives after a relaunch, then F pendingLoginExpired and the login is gone")
    func expiredIsRefusedAndRemoved() async throws {
        let device = try FileStoreDevice()
        defer { device.remove() }
        var first: RegStateService? = try device.launch()
        await first?.start()
        let url = try #require(try await first?.beginSocialRegistration())
        let callback = try await device.simulator.authorize(url, as: "alice@example.com")
        first = nil
        device.clock.advance(by: 601)
        let relaunched = try device.launch()
        #expect(await relaunched.start() == .registrationRequired)
        let pending = try #require(await relaunched.pendingSocialLogin())
        #expect(pending.isExpired)
        let before = await device.simulator.requestLog.filter { $0.hasPrefix("POST") }.count
        await #expect(throws: RegStateServiceError.registration(.pendingLoginExpired)) {
            try await relaunched.completeSocialRegistration(callback: callback)
        }
        #expect(await relaunched.state == .failed(.registration(.pendingLoginExpired)))
        #expect(await device.simulator.requestLog.filter { $0.hasPrefix("POST") }.count == before,
                "the expired login's code was not sent")
        #expect(try device.record() == nil)
        #expect(await relaunched.pendingSocialLogin() == nil)
        await #expect(throws: RegStateServiceError.registration(.noPendingLogin)) {
            try await relaunched.completeSocialRegistration(callback: callback)
        }
        // A new login works at once.
        try await device.world.signIn(relaunched)
        #expect(try await relaunched.confirmRegistration().activation == .registered)
    }

    @Test("Given two begins in two launches, then the newer one is pending: its redirect registers, the older one's is refused")
    func newerBeginSupersedes() async throws {
        let device = try FileStoreDevice()
        defer { device.remove() }
        var first: RegStateService? = try device.launch()
        await first?.start()
        let older = try #require(try await first?.beginSocialRegistration())
        first = nil
        var second: RegStateService? = try device.launch()
        await second?.start()
        let newer = try #require(try await second?.beginSocialRegistration())
        second = nil
        #expect(try device.record()?.request.url == newer)
        let olderCallback = try await device.simulator.authorize(older, as: "bob@example.com")
        let newerCallback = try await device.simulator.authorize(newer, as: "alice@example.com")

        let third = try device.launch()
        await third.start()
        #expect(await third.pendingSocialLogin()?.authorizationURL == newer)
        let profile = try await third.completeSocialRegistration(callback: newerCallback)
        #expect(profile.email == "alice@example.com")
        await #expect(throws: RegStateServiceError.registration(.noPendingLogin)) {
            try await third.completeSocialRegistration(callback: olderCallback)
        }

        // The older redirect arriving first while the newer login is pending: refused (its state is not the
        // pending login's), and the pending login is used up with it, as a forged redirect would.
        let fourth = try device.launch()
        await fourth.start()
        _ = try await fourth.beginSocialRegistration()
        let fifth = try device.launch()
        await fifth.start()
        await #expect(throws: RegStateServiceError.registration(.stateMismatch)) {
            try await fifth.completeSocialRegistration(callback: olderCallback)
        }
    }

    @Test("Given a process holding its login in memory, when another process began a newer one, then the older redirect is refused as superseded",
          arguments: [1.0, 0.0])
    func supersededInAnotherProcess(after seconds: Double) async throws {
        let device = try FileStoreDevice()
        defer { device.remove() }
        // A time whose seconds since 1970 are not those since 2001 to the last bit.
        device.clock.advance(by: 0.1)
        let first = try device.launch()
        await first.start()
        let older = try await first.beginSocialRegistration()
        let second = try device.launch()
        await second.start()
        // A second later, or at the same instant (the newer login's time then reads back from the store).
        device.clock.advance(by: seconds)
        let newer = try await second.beginSocialRegistration()
        let callback = try await device.simulator.authorize(older, as: "alice@example.com")
        await #expect(throws: RegStateServiceError.registration(.pendingLoginSuperseded)) {
            try await first.completeSocialRegistration(callback: callback)
        }
        #expect(try device.record()?.request.url == newer, "the newer login is left for its owner")
        try await second.completeSocialRegistration(callback: try await device.simulator.authorize(newer, as: "alice@example.com"))
    }

    @Test("Given a pending login, when the user begins passwordless, cancels or clears the state, then it is removed; a logout leaves another process's")
    func everyWayOutRemovesIt() async throws {
        let device = try FileStoreDevice()
        defer { device.remove() }
        // Passwordless supersedes it (after a relaunch).
        var service: RegStateService? = try device.launch()
        await service?.start()
        _ = try await service?.beginSocialRegistration()
        service = try device.launch()
        await service?.start()
        try await service?.beginPasswordlessRegistration(email: "carol@example.com")
        #expect(try device.record() == nil)
        try await service?.retryRegistration()
        // Retry (cancel) in the same process.
        _ = try await service?.beginSocialRegistration()
        #expect(try device.record() != nil)
        try await service?.retryRegistration()
        #expect(try device.record() == nil)
        // Discarded after a relaunch.
        _ = try await service?.beginSocialRegistration()
        service = try device.launch()
        await service?.start()
        await service?.discardPendingSocialLogin()
        #expect(try device.record() == nil)
        #expect(await service?.state == .registrationRequired)
        // Clear-state.
        _ = try await service?.beginSocialRegistration()
        _ = await service?.clearState()
        #expect(try device.record() == nil)
        // Logout, with a login begun elsewhere still stored: that login is the other process's, not this session's.
        let active = try device.launch()
        await active.start()
        try await device.world.signIn(active)
        #expect(try device.record() == nil, "a login finished in the same process is taken from the store too")
        try await active.confirmRegistration()
        let client = OIDCClient(configuration: device.world.configuration.oidc, transport: device.simulator.transport,
                                clock: device.clock)
        let binding = CredentialBinding(device.world.configuration.oidc)
        let elsewhere = PendingLogin(request: try await client.makeAuthorizationRequest(), issuer: binding.issuer,
                                     clientID: binding.clientID)
        try await TokenService(store: FileSecureStore(directory: device.secure)).savePending(elsewhere)
        #expect(try device.record() != nil)
        try await active.logout()
        #expect(try device.record() != nil, "a logout removes only what its own session wrote")
    }

    @Test("Given a store of the previous format (no pending login) or a damaged record, then launches read it as before")
    func oldStoresReadFine() async throws {
        let device = try FileStoreDevice()
        defer { device.remove() }
        let service = try device.launch()
        await service.start()
        try await device.world.signIn(service)
        try await service.confirmRegistration()
        #expect(try device.record() == nil)
        let relaunched = try device.launch()
        #expect(await relaunched.start().letter == "B")
        #expect(await relaunched.pendingSocialLogin() == nil)
        try await relaunched.logout()
        try Data("not a record".utf8).write(to: device.recordURL)
        let again = try device.launch()
        #expect(await again.start() == .registrationRequired)
        #expect(await again.pendingSocialLogin() == nil)
        await #expect(throws: RegStateServiceError.registration(.noPendingLogin)) {
            try await again.completeSocialRegistration(callback: URL(string: "com.example.app:/callback?code=x&state=y")!)
        }
        try await device.world.signIn(again)
        #expect(try await again.confirmRegistration().activation == .registered)
    }

    @Test("Given DPoP, when the login is finished after a relaunch, then the tokens are bound to the key the login was begun with")
    func dpopKeySurvives() async throws {
        var device = try FileStoreDevice { $0.dpop = .required }
        device.dpop = .required
        defer { device.remove() }
        var first: RegStateService? = try device.launch()
        await first?.start()
        let url = try #require(try await first?.beginSocialRegistration())
        first = nil
        let thumbprint = try #require(try device.record()?.dpopKeyThumbprint)
        #expect(url.absoluteString.contains("dpop_jkt=\(thumbprint)"))
        let relaunched = try device.launch()
        await relaunched.start()
        try await relaunched.completeSocialRegistration(callback: try await device.simulator.authorize(url, as: "alice@example.com"))
        #expect(try await relaunched.confirmRegistration().activation == .registered)
        let key = try #require(try DPoPKeyStore(store: FileSecureStore(directory: device.secure), crypto: SystemCrypto()).load())
        #expect(key.thumbprint == thumbprint)
    }
}
