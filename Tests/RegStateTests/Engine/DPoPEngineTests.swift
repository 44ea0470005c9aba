import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

@Suite("DPoP end to end on the simulator (RFC 9449)")
struct DPoPEngineTests {
    static let resource = URL(string: "https://api.regstate.sim/v1/resource")!
    static let userinfo = URL(string: "https://idp.regstate.sim/userinfo")!

    @Test("registration, authorized calls and renewal are bound to one key; status shows its thumbprint")
    func boundEndToEnd() async throws {
        let dpop = try DPoPDevice()
        let service = try await dpop.registeredService()
        let key = try #require(try dpop.storedKey())
        #expect(await service.tokenBinding() == .dpop(thumbprint: key.thumbprint))
        #expect(try dpop.credentials()["token_type"] == "DPoP")
        let subject = try #require(await dpop.simulator.user(email: "alice@example.com")).subject
        let first = try await dpop.transport(service).send(HTTPRequest(method: .get, url: Self.resource))
        #expect(first.status == 200)
        dpop.clock.advance(by: 7200)
        let second = try await dpop.transport(service).send(HTTPRequest(method: .get, url: Self.resource))
        #expect(second.status == 200)
        #expect(await dpop.simulator.refreshGrantCount == 1)
        #expect(await service.tokenBinding() == .dpop(thumbprint: key.thumbprint))
        #expect(try dpop.storedKey() == key)
        #expect(await dpop.simulator.resourceRequests.map(\.bearer) == [.accepted(subject: subject), .accepted(subject: subject)])
        // The key never reaches the journal or the logs.
        let journal = try await service.journalEntries().map { "\($0)" }.joined()
        #expect(!journal.contains(key.thumbprint))
        #expect(!dpop.device.logger.entries.map(\.message).joined().contains(Base64URL.encode(key.privateKey.pkcs8DER)))
    }

    @Test("passwordless registration is bound too")
    func passwordlessBound() async throws {
        let dpop = try DPoPDevice()
        let service = dpop.launch()
        await service.start()
        try await service.beginPasswordlessRegistration(email: "bob@example.com")
        let code = try #require(await dpop.simulator.latestCode(for: "bob@example.com"))
        try await service.completePasswordlessRegistration(code: code)
        try await service.confirmRegistration()
        #expect(try dpop.credentials()["token_type"] == "DPoP")
        #expect(try await dpop.transport(service).send(HTTPRequest(method: .get, url: Self.resource)).status == 200)
    }

    @Test("a stolen access token gets 401 from another installation's key and as Bearer")
    func stolenAccessToken() async throws {
        let dpop = try DPoPDevice()
        let service = try await dpop.registeredService()
        let token = try #require(await service.runner.tokens.snapshot()?.accessToken)
        let crypto = SystemCrypto()
        let thief = DPoPProofSigner(key: try DPoPKey.generate(crypto: crypto), crypto: crypto)
        var request = HTTPRequest(method: .get, url: Self.userinfo)
        request.headers["Authorization"] = "DPoP \(token)"
        request.headers["DPoP"] = try thief.proof(method: "GET", url: Self.userinfo, accessToken: token, now: dpop.clock.now())
        #expect(try await dpop.simulator.transport.send(request).status == 401)
        var bearer = HTTPRequest(method: .get, url: Self.userinfo)
        bearer.headers["Authorization"] = "Bearer \(token)"
        #expect(try await dpop.simulator.transport.send(bearer).status == 401)
        #expect(try await dpop.transport(service).send(HTTPRequest(method: .get, url: Self.resource)).status == 200)
    }

    @Test("a stolen refresh token gets invalid_grant with another key or without a proof; the real session renews")
    func stolenRefreshToken() async throws {
        let dpop = try DPoPDevice()
        let service = try await dpop.registeredService()
        let refresh = try #require(await service.runner.tokens.snapshot()?.refreshToken)
        let token = URL(string: "https://idp.regstate.sim/oauth/token")!
        let form = [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "regstate-cli")]
        let bare = try await dpop.simulator.transport.send(.form(url: token, parameters: form))
        #expect(bare.status == 400)
        #expect(bare.jsonBody?["error"] == "invalid_grant")
        let crypto = SystemCrypto()
        let thief = DPoPProofSigner(key: try DPoPKey.generate(crypto: crypto), crypto: crypto)
        var proved = HTTPRequest.form(url: token, parameters: form)
        proved.headers["DPoP"] = try thief.proof(method: "POST", url: token, now: dpop.clock.now())
        let other = try await dpop.simulator.transport.send(proved)
        #expect(other.jsonBody?["error"] == "invalid_grant")
        let before = try #require(await service.runner.tokens.snapshot()?.accessToken)
        #expect(await service.renewSession().session?.activation == .renewed)
        #expect(await dpop.simulator.refreshGrantCount == 3)
        #expect(try #require(await service.runner.tokens.snapshot()?.accessToken) != before)
        #expect(try await dpop.transport(service).send(HTTPRequest(method: .get, url: Self.resource)).status == 200)
    }

    @Test("server nonces at the token endpoint and the resource are retried once")
    func nonceRetriedOnce() async throws {
        let dpop = try DPoPDevice(nonce: .required)
        let service = try await dpop.registeredService()
        #expect(await dpop.tokenRequests() == 2)
        await dpop.simulator.resetCounters()
        #expect(try await dpop.transport(service).send(HTTPRequest(method: .get, url: Self.resource)).status == 200)
        // Another origin: its first answer asks for its nonce, the one retry carries it, and the next call uses the
        // remembered nonce at once.
        #expect(await dpop.simulator.requestLog == ["GET /v1/resource", "GET /v1/resource"])
        #expect(try await dpop.transport(service).send(HTTPRequest(method: .get, url: Self.resource)).status == 200)
        #expect(await dpop.simulator.requestLog.count == 3)
    }

    @Test("a nonce that changes on every answer: one retry, then a typed failure, nothing stored")
    func nonceNeverSatisfied() async throws {
        let dpop = try DPoPDevice(nonce: .changesEveryAnswer)
        let service = dpop.launch()
        await service.start()
        await #expect(throws: RegStateServiceError.registration(.tokenRequestFailed(error: "use_dpop_nonce",
                                                                             description: "A DPoP nonce is required."))) {
            try await dpop.device.signIn(service)
        }
        #expect(await dpop.tokenRequests() == 2)
        #expect(try dpop.store.data(forKey: TokenService.credentialsKey) == nil)
    }

    @Test("required against a provider without DPoP: a typed error at registration start")
    func requiredNotOffered() async throws {
        let dpop = try DPoPDevice(mode: .required, simulator: .off)
        let service = dpop.launch()
        await service.start()
        await #expect(throws: RegStateServiceError.registration(.dpop(.notOffered))) {
            _ = try await service.beginSocialRegistration()
        }
    }

    @Test("a Bearer answer to a proof: refused under required (nothing stored), an unbound session under auto")
    func bearerAnswer() async throws {
        let required = try DPoPDevice(mode: .required, simulator: .advertisedOnly)
        let service = required.launch()
        await service.start()
        await #expect(throws: RegStateServiceError.registration(.dpop(.unboundTokenIssued))) {
            try await required.device.signIn(service)
        }
        #expect(try required.store.data(forKey: TokenService.credentialsKey) == nil)
        let auto = try DPoPDevice(mode: .whenOffered, simulator: .advertisedOnly)
        let unbound = try await auto.registeredService()
        #expect(await unbound.tokenBinding() == .bearer)
        #expect(try await auto.transport(unbound).send(HTTPRequest(method: .get, url: Self.resource)).status == 200)
    }

    @Test("off: bearer tokens and no key, even at a provider offering DPoP")
    func off() async throws {
        let dpop = try DPoPDevice(mode: .off)
        let service = try await dpop.registeredService()
        #expect(await service.tokenBinding() == .bearer)
        #expect(try dpop.storedKey() == nil)
        #expect(try await dpop.transport(service).send(HTTPRequest(method: .get, url: Self.resource)).status == 200)
    }

    @Test("a credentials record written before token_type was kept still reads, as Bearer")
    func oldRecordReads() async throws {
        let dpop = try DPoPDevice(mode: .off)
        let registered = try await dpop.registeredService()
        var record = try dpop.credentials()
        record.removeValue(forKey: "token_type")
        try dpop.store.set(JSONValue.object(record).serialized(), forKey: TokenService.credentialsKey)
        _ = registered
        let relaunched = dpop.launch()
        #expect(await relaunched.start().session != nil)
        #expect(await relaunched.tokenBinding() == .bearer)
        #expect(try await dpop.transport(relaunched).send(HTTPRequest(method: .get, url: Self.resource)).status == 200)
    }

    @Test("an unreadable key with a stored refresh token: an explained final error and D, no refresh grant")
    func unreadableKey() async throws {
        let dpop = try DPoPDevice()
        let service = try await dpop.registeredService()
        try dpop.store.set(Data("{\"version\":1,\"kty\":\"EC\",\"crv\":\"P-2".utf8), forKey: DPoPKeyStore.recordKey)
        if case .dpopKeyUnavailable = await service.tokenBinding() {} else { Issue.record("binding not unavailable") }
        dpop.clock.advance(by: 7200)
        let state = await service.renewSession()
        #expect(state == .registrationRequired)
        #expect(await dpop.simulator.refreshGrantCount == 0)
        let failures = try await service.journalEntries().compactMap { entry -> RenewalFailure? in
            if case .renewalFailed(let failure, _) = entry.event { return failure }
            return nil
        }
        #expect(failures == [.dpopKeyUnavailable(reason: "not a JSON record")])
        #expect(try dpop.store.data(forKey: TokenService.credentialsKey) == nil)
    }

    @Test("an unreadable key while the bound access token is still valid: the first authorized request ends the session (E final, D), no request sent")
    func unreadableKeyAtRequest() async throws {
        let dpop = try DPoPDevice()
        let service = try await dpop.registeredService()
        try dpop.store.set(Data("{\"version\":1,\"kty\":\"EC\",\"crv\":\"P-384\",\"pkcs8\":\"AA\"}".utf8),
                           forKey: DPoPKeyStore.recordKey)
        await dpop.simulator.resetCounters()
        await #expect(throws: RegStateServiceError.renewal(.dpopKeyUnavailable(reason: "the key is on curve P-384, not P-256"))) {
            _ = try await dpop.transport(service).send(HTTPRequest(method: .get, url: Self.resource))
        }
        #expect(await service.state == .registrationRequired)
        #expect(await dpop.simulator.requestLog.isEmpty)
    }

    @Test("logout and clear-state remove the key; a new registration makes a new one")
    func keyReplaced() async throws {
        let dpop = try DPoPDevice()
        let service = try await dpop.registeredService()
        let first = try #require(try dpop.storedKey())
        try await service.logout()
        #expect(try dpop.storedKey() == nil)
        try await dpop.device.signIn(service)
        try await service.confirmRegistration()
        let second = try #require(try dpop.storedKey())
        #expect(second.thumbprint != first.thumbprint)
        #expect(await service.tokenBinding() == .dpop(thumbprint: second.thumbprint))
        #expect(await service.clearState().removedKeys.contains(DPoPKeyStore.recordKey))
    }
}
