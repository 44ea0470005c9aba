import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// Two processes (an app and its extension) sharing one store with a DPoP-bound session. Found by the simulation
/// (seed 537169787, shrunk to three actions): a registration started in the second process replaced the key on disk
/// at once, so every request of the first process's session went out with a proof by another key than its token's
/// (`401 invalid_dpop_proof`), and a renewal failed the same way.
@Suite("DPoP: a registration in another process keeps the session's key until it stores its own tokens")
struct DPoPSharedStoreTests {
    @Test("Given a bound session, when another process starts a registration, then the session's requests still prove with its key")
    func registrationElsewhereKeepsTheKey() async throws {
        let dpop = try DPoPDevice()
        let extensionProcess = dpop.launch()
        await extensionProcess.start()
        let app = try await dpop.registeredService()
        let key = try #require(try dpop.storedKey())
        // The extension still thinks it has no session (it launched before the registration) and starts one.
        _ = try await extensionProcess.beginSocialRegistration()
        #expect(try dpop.storedKey() == key)
        let response = try await dpop.transport(app).send(HTTPRequest(method: .get, url: DPoPEngineTests.resource))
        #expect(response.status == 200)
        dpop.clock.advance(by: 7200)
        #expect(try await dpop.transport(app).send(HTTPRequest(method: .get, url: DPoPEngineTests.resource)).status == 200)
        #expect(await dpop.simulator.refreshGrantCount == 1)
    }

    @Test("Given a registration that completes in the other process, then its new key replaces the old one with its tokens")
    func completedRegistrationReplacesTheKey() async throws {
        let dpop = try DPoPDevice()
        let extensionProcess = dpop.launch()
        await extensionProcess.start()
        _ = try await dpop.registeredService()
        let old = try #require(try dpop.storedKey())
        try await dpop.device.signIn(extensionProcess)
        try await extensionProcess.confirmRegistration()
        let new = try #require(try dpop.storedKey())
        #expect(new.thumbprint != old.thumbprint)
        #expect(await extensionProcess.tokenBinding() == .dpop(thumbprint: new.thumbprint))
        #expect(try dpop.store.data(forKey: DPoPKeyStore.registrationRecordKey) == nil)
        let response = try await dpop.transport(extensionProcess).send(HTTPRequest(method: .get, url: DPoPEngineTests.resource))
        #expect(response.status == 200)
    }

    @Test("Given a key record holding another key than the one the credentials name, then no request proves with it")
    func recordNamesItsKey() async throws {
        // Seeds 3998601549, 4008600885 (dst4): another process's registration wrote its key, then its tokens; a call
        // in between read the old token and the new key and went out with a proof by another key than its token's.
        let dpop = try DPoPDevice()
        let app = try await dpop.registeredService()
        let key = try #require(try dpop.storedKey())
        #expect(try dpop.credentials()["dpop_jkt"]?.stringValue == key.thumbprint)
        // What the writer leaves between its two writes (or a crash between them): the key record holds a new key.
        _ = try DPoPKeyStore(store: dpop.store, crypto: SystemCrypto()).replace()
        if case .dpopKeyUnavailable = await app.tokenBinding() {} else { Issue.record("binding not unavailable") }
        let requests = await dpop.simulator.requestLog.count
        await #expect(throws: RegStateServiceError.self) {
            _ = try await dpop.transport(app).send(HTTPRequest(method: .get, url: DPoPEngineTests.resource))
        }
        // Nothing went out with the foreign key; the session ended the way a renewal without its key ends it.
        #expect(await dpop.simulator.requestLog.count == requests)
        #expect(await app.tokenBinding() == .none)
    }

    @Test("Given credentials written before the key's thumbprint was kept, then the stored key is used")
    func oldRecordUsesTheStoredKey() async throws {
        let dpop = try DPoPDevice()
        let app = try await dpop.registeredService()
        let key = try #require(try dpop.storedKey())
        var record = try dpop.credentials()
        record["dpop_jkt"] = nil
        try dpop.store.set(JSONValue.object(record).serialized(), forKey: TokenService.credentialsKey)
        #expect(await app.tokenBinding() == .dpop(thumbprint: key.thumbprint))
        let response = try await dpop.transport(app).send(HTTPRequest(method: .get, url: DPoPEngineTests.resource))
        #expect(response.status == 200)
    }
}
