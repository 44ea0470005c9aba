import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// Records written before credentials were bound (no `issuer`, no `client_id`) keep working for the configuration
/// that wrote them: adopted when the stored ID token's `iss` is the configured issuer and its `aud` names the
/// client; otherwise D with the reason, and the record left alone.
@Suite("Credentials of the previous format: binding migration")
struct CredentialBindingMigrationTests {
    /// The record as the previous main wrote it: its writer (sorted keys, seconds since 1970) with neither field.
    static func previousFormat(of device: SimulatedDevice) throws -> Data {
        let data = try #require(try device.store.data(forKey: TokenService.credentialsKey))
        var credentials = try #require(StoredCredentials.read(data))
        #expect(credentials.issuer != nil && credentials.clientID != nil, "a new record is bound")
        credentials.issuer = nil
        credentials.clientID = nil
        let old = credentials.encoded
        #expect(try keys(old).isDisjoint(with: ["issuer", "client_id"]))
        return old
    }

    static func keys(_ data: Data?) throws -> Set<String> {
        let data = try #require(data)
        return Set(try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]).keys)
    }

    @Test("Given a previous-format record of this configuration, when launched, then Active B without a write; after expiry Active C, and the renewed record carries issuer and client_id")
    func adoptedByItsConfiguration() async throws {
        let device = try SimulatedDevice()
        _ = try await device.registeredService()
        let old = try Self.previousFormat(of: device)
        try device.store.set(old, forKey: TokenService.credentialsKey)
        #expect(await device.launch().start().letter == "B")
        #expect(try device.store.data(forKey: TokenService.credentialsKey) == old, "inspection writes nothing")
        device.clock.advance(by: 7200)
        let service = device.launch()
        #expect(await service.start().letter == "C")
        #expect(await device.simulator.refreshGrantCount == 1)
        let renewed = try device.store.data(forKey: TokenService.credentialsKey)
        #expect(try Self.keys(renewed).isSuperset(of: ["issuer", "client_id"]))
        #expect(try await service.validAccessToken().token.isEmpty == false)
    }

    @Test("Given a previous-format record, when another issuer or client launches, then D with the reason, nothing sent, the record byte-identical; its own configuration is still Active", arguments: [
        (issuer: "https://idp.elsewhere.example", client: nil, reason: CredentialBindingMismatch.issuer),
        (issuer: nil, client: "another-client", reason: .client),
    ] as [(issuer: String?, client: String?, reason: CredentialBindingMismatch)])
    func otherConfigurationSeesD(_ row: (issuer: String?, client: String?, reason: CredentialBindingMismatch)) async throws {
        let device = try SimulatedDevice()
        _ = try await device.registeredService()
        let old = try Self.previousFormat(of: device)
        try device.store.set(old, forKey: TokenService.credentialsKey)
        device.clock.advance(by: 7200)
        await device.simulator.resetCounters()
        let other = CredentialBindingTests.service(on: device, issuer: row.issuer.map(SimulatorConfiguration.literalURL),
                                                   clientID: row.client)
        #expect(await other.start() == .registrationRequired)
        #expect(try await CredentialBindingTests.lastInspection(other) == .boundElsewhere(row.reason))
        #expect(await device.simulator.requestLog.isEmpty)
        #expect(try device.store.data(forKey: TokenService.credentialsKey) == old)
        #expect(await device.launch().start().letter == "C")
    }

    /// A compact token with these claims (unsigned: the binding reads claims of a token validated when stored).
    static func token(_ claims: String) -> String {
        Base64URL.encode(Data(#"{"alg":"RS256","kid":"k"}"#.utf8)) + "." + Base64URL.encode(Data(claims.utf8)) + ".c2ln"
    }

    static let binding = CredentialBinding(OIDCConfiguration(
        issuer: SimulatorConfiguration.literalURL("https://idp.example"), clientID: "app",
        redirectURI: SimulatorConfiguration.literalURL("com.example.app:/callback")))

    @Test("The binding rule, record by record: previous format adopted only on iss and aud; bound records compared as stored", arguments: [
        (nil, nil, token(#"{"iss":"https://idp.example","aud":"app"}"#), nil),
        (nil, nil, token(#"{"iss":"https://idp.example","aud":["api","app"]}"#), nil),
        (nil, nil, token(#"{"iss":"https://idp.other","aud":"app"}"#), .issuer),
        (nil, nil, token(#"{"iss":"https://idp.example/","aud":"app"}"#), .issuer),
        (nil, nil, token(#"{"iss":"https://idp.example","aud":"other"}"#), .client),
        (nil, nil, token(#"{"iss":"https://idp.example"}"#), .client),
        (nil, nil, nil, .unproven),
        (nil, nil, "not-a-token", .unproven),
        ("https://idp.example", "app", nil, nil),
        ("https://idp.example", "other", token(#"{"iss":"https://idp.example","aud":"app"}"#), .client),
        ("https://idp.other", "app", token(#"{"iss":"https://idp.example","aud":"app"}"#), .issuer),
        ("https://idp.example", nil, token(#"{"iss":"https://idp.example","aud":"app"}"#), .client),
        (nil, "app", token(#"{"iss":"https://idp.example","aud":"app"}"#), .issuer),
    ] as [(String?, String?, String?, CredentialBindingMismatch?)])
    func rule(_ row: (String?, String?, String?, CredentialBindingMismatch?)) async throws {
        #expect(Self.binding.mismatch(issuer: row.0, clientID: row.1, idToken: row.2) == row.3)
        // The same through the service: a stored record is inspected, and one of another origin is left untouched.
        let store = InMemorySecureStore()
        var credentials = StoredCredentials(
            stage: .confirmed, registrationType: .social,
            profile: Profile(subject: "s", issuer: "https://idp.example"), idToken: row.2, accessToken: "access-1",
            refreshToken: "refresh-1", expiresAt: Date().addingTimeInterval(3600))
        credentials.issuer = row.0
        credentials.clientID = row.1
        let data = credentials.encoded
        try store.set(data, forKey: TokenService.credentialsKey)
        let service = TokenService(store: store, binding: Self.binding)
        let status = await service.inspect().status
        if let reason = row.3 {
            #expect(status == .boundElsewhere(reason))
            #expect(await service.snapshot() == nil)
            #expect(await service.snapshot()?.refreshToken == nil)
            try await service.clearAll()
            #expect(try store.data(forKey: TokenService.credentialsKey) == data, "not read, not moved, not removed")
        } else {
            guard case .valid = status else { Issue.record("expected valid, got \(status)"); return }
            #expect(await service.snapshot()?.refreshToken == "refresh-1")
        }
    }

    @Test("A record as an earlier main wrote it (the store fuzz seed, byte for byte): adopted by its issuer and client, D for another, the bytes untouched")
    func earlierMainRecord() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let bytes = try Data(contentsOf: root.appendingPathComponent("Tests/Fuzz/Corpus/store/confirmed"))
        #expect(try Self.keys(bytes).isDisjoint(with: ["issuer", "client_id"]))
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_795_511_000))
        func binding(_ issuer: String, _ client: String) -> CredentialBinding {
            CredentialBinding(OIDCConfiguration(issuer: SimulatorConfiguration.literalURL(issuer), clientID: client,
                                                redirectURI: SimulatorConfiguration.literalURL("com.example.app:/callback")))
        }
        let cases: [(CredentialBinding, CredentialBindingMismatch?)] = [
            (binding("https://idp.regstate.sim", "regstate-cli"), nil),
            (binding("https://idp.elsewhere.example", "regstate-cli"), .issuer),
            (binding("https://idp.regstate.sim", "x"), .client),
        ]
        for (binding, reason) in cases {
            let store = InMemorySecureStore([TokenService.credentialsKey: bytes])
            let tokens = TokenService(store: store, clock: clock, binding: binding)
            let status = await tokens.inspect().status
            if let reason {
                #expect(status == .boundElsewhere(reason))
                #expect(await tokens.snapshot() == nil)
            } else {
                #expect(status.isValid, "got \(status)")
                #expect(await tokens.snapshot()?.refreshToken == "T")
            }
            #expect(try store.data(forKey: TokenService.credentialsKey) == bytes)
        }
    }

    @Test("Host mode: a session stored for another issuer is not picked up, gets no token and survives; this configuration's is")
    func hostMode() async throws {
        let app = try HostApp()
        let service = await app.launch()
        try await service.updateToken(idToken: try await app.login())
        let stored = try #require(try app.store.data(forKey: TokenService.credentialsKey))
        var configuration = app.device.configuration
        configuration.sessionSource = .host
        configuration.oidc.issuer = SimulatorConfiguration.literalURL("https://idp.elsewhere.example")
        let other = RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: app.store, journal: InMemoryJournal(), transport: app.device.simulator.transport,
            clock: app.device.clock))
        #expect(await other.start() == .registrationRequired)
        await #expect(throws: RegStateServiceError.noSession) { try await other.logout(.allTokensExpiredOffline) }
        #expect(try app.store.data(forKey: TokenService.credentialsKey) == stored)
        // This configuration's session is still there.
        #expect(await app.launch().state.letter == "B")
    }
}

extension StoredTokenStatus {
    var isValid: Bool { if case .valid = self { true } else { false } }
}
