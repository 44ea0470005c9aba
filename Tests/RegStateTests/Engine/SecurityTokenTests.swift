import Foundation
import Testing
import RegState
import RegStateTesting
import RegStateSimulator
import RegStateTestSupport

/// A self-renewing app whose API is the registration backend: the security token obtained at confirmation goes to
/// the backend's URLs, the provider's access token to the provider's.
struct SelfRenewingApp {
    let device: SimulatedDevice
    let service: RegStateService

    init(configure: (inout SimulatorConfiguration) -> Void = { _ in }) async throws {
        device = try SimulatedDevice(configure: configure)
        service = try await device.registeredService()
        await device.simulator.setResourceTakesSecurityToken(true)
    }

    var policy: TokenPolicy {
        TokenPolicy(validatingURLs: [device.world.issuer], securityTokenURLs: [device.world.backendURL])
    }

    var api: AuthorizedTransport { AuthorizedTransport(base: device.simulator.transport, service: service, policy: policy) }

    var resource: HTTPRequest {
        HTTPRequest(method: .get, url: device.world.backendURL.appendingPathComponent("v1/resource/tickets"))
    }

    func exchanges() async -> Int {
        await device.simulator.requestLog.filter { $0.hasPrefix("POST ") && $0.contains("/v1/security-token") }.count
    }
}

@Suite("The backend security token in self mode")
struct SecurityTokenTests {
    @Test("the policy names the token per URL: the longer listed URL decides, a tie goes to the security token")
    func carrierPerURL() throws {
        let policy = TokenPolicy(validatingURLs: [URL(string: "https://api.example.com/v1/public")!,
                                                  URL(string: "https://idp.example.com/")!],
                                 securityTokenURLs: [URL(string: "https://api.example.com/v1")!,
                                                     URL(string: "https://idp.example.com/")!])
        #expect(policy.carrier(for: URL(string: "https://api.example.com/v1/tickets")!) == .securityToken)
        #expect(policy.carrier(for: URL(string: "https://api.example.com/v1/public/news")!) == .accessToken)
        #expect(policy.carrier(for: URL(string: "https://idp.example.com/userinfo")!) == .securityToken)
        #expect(policy.carrier(for: URL(string: "https://api.example.com/v2")!) == nil)
        #expect(policy.carrier(for: URL(string: "https://api.example.com/v1/../admin")!) == nil)
    }

    @Test("the security token obtained at confirmation is stored with the credentials and accepted by the backend")
    func obtainedAtConfirmation() async throws {
        let app = try await SelfRenewingApp()
        #expect(try await app.api.send(app.resource).status == 200)
        #expect(await app.exchanges() == 1)
        let subject = try #require(await app.device.simulator.user(email: "alice@example.com")).subject
        #expect(await app.device.simulator.resourceRequests.last?.bearer == .accepted(subject: subject))
    }

    @Test("expired (ID token too): 200 requests make one refresh grant and one new security token; each goes out once")
    func expiryRenewsOnce() async throws {
        let app = try await SelfRenewingApp()
        app.device.clock.advance(by: 3601)
        let api = app.api
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<200 { group.addTask { try await api.send(app.resource).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 200 && statuses.allSatisfy { $0 == 200 })
        #expect(await app.device.simulator.refreshGrantCount == 1)
        // Confirmation, then the renewed ID token's exchange: the stored one, past its `exp`, is not offered.
        #expect(await app.exchanges() == 2)
        #expect(await app.device.simulator.resourceRequests.count == 200)
        let names = try await app.service.journalEntries().map(\.event.name)
        #expect(names.filter { $0 == "securityTokenRenewed" }.count == 1)
    }

    @Test("an app and its extension on one store, both finding the security token expired at once: one refresh grant, one successful exchange, every request succeeds")
    func processesSharingTheStoreRenewOnce() async throws {
        let app = try await SelfRenewingApp()
        let extensionService = app.device.launch()
        await extensionService.start()
        app.device.clock.advance(by: 3601)
        let policy = app.policy
        let transports = [app.api, AuthorizedTransport(base: app.device.simulator.transport, service: extensionService,
                                                       policy: policy)]
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for transport in transports {
                for _ in 0..<20 { group.addTask { try await transport.send(app.resource).status } }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 40 && statuses.allSatisfy { $0 == 200 })
        #expect(await app.device.simulator.refreshGrantCount == 1)
        // Confirmation, then per service at most one exchange refused for the expired ID token, and one exchange that
        // succeeds: the second service finds the first one's token under the lock and does not exchange again.
        let successful = await app.exchanges()
        #expect(successful <= 4, "security-token exchanges: \(successful)")
        // The token the renewal replaced was retired at the backend: one live token is left.
        #expect(await app.device.simulator.liveSecurityTokenCount(for: "alice@example.com") == 1)
    }

    @Test("a backend rejecting every security token: one renewal, then a typed failure without renewing again")
    func rejectingBackendSecurityToken() async throws {
        let app = try await SelfRenewingApp()
        await app.device.simulator.setResourceRejectsEveryToken(true)
        // Renewed once and rejected again; from then on held (30 s from the renewal), nothing renewed.
        let held = RegStateServiceError.rejectionHeld(until: app.device.clock.now().addingTimeInterval(30))
        for call in 0..<6 {
            await #expect(throws: call == 0 ? .rejectedAfterRenewal : held) { _ = try await app.api.send(app.resource) }
        }
        #expect(await app.exchanges() == 2)
        #expect(await app.device.simulator.refreshGrantCount == 0)
        // After the backoff one more renewal is tried.
        app.device.clock.advance(by: 31)
        await #expect(throws: RegStateServiceError.rejectedAfterRenewal) { _ = try await app.api.send(app.resource) }
        #expect(await app.exchanges() == 3)
    }

    @Test("a backend rejecting every access token costs at most one refresh for many calls")
    func rejectingBackendAccessToken() async throws {
        let device = try SimulatedDevice()
        let service = try await device.registeredService()
        await device.simulator.setResourceRejectsEveryToken(true)
        let api = AuthorizedTransport(base: device.simulator.transport, service: service,
                                      policy: TokenPolicy(validatingURLs: [device.world.backendURL]))
        let resource = HTTPRequest(method: .get, url: device.world.backendURL.appendingPathComponent("v1/resource/x"))
        let held = RegStateServiceError.rejectionHeld(until: device.clock.now().addingTimeInterval(30))
        for call in 0..<5 {
            await #expect(throws: call == 0 ? .rejectedAfterRenewal : held) { _ = try await api.send(resource) }
        }
        #expect(await device.simulator.refreshGrantCount == 1)
        #expect(await service.state.letter == "C")
    }

    @Test("a forced logout at the exchange ends the session; the waiting caller hears it")
    func forcedLogoutAtExchange() async throws {
        let app = try await SelfRenewingApp()
        _ = try await app.device.simulator.forceLogout(email: "alice@example.com")
        app.device.clock.advance(by: 3601)
        let (api, store, resource) = (app.api, app.device.store, app.resource)
        // What the caller finds on disk the moment it hears of the end: the session already gone.
        let heard = await Task { () -> (RegStateServiceError?, [String]) in
            do throws(RegStateServiceError) {
                _ = try await api.send(resource)
            } catch {
                return (error, (try? store.keys()) ?? [])
            }
            return (nil, [])
        }.value
        #expect(heard.0 == .backend(.forcedLogout))
        #expect(heard.1.contains("credentials") == false)
        #expect(await app.service.state == .registrationRequired)
        #expect(try app.device.store.keys().contains("credentials") == false)
    }

    @Test("offline at the exchange: E recoverable, the session stays offline, the caller gets a typed offline error")
    func offlineAtExchange() async throws {
        let app = try await SelfRenewingApp()
        app.device.clock.advance(by: 3601)
        await app.device.simulator.setOffline(true)
        await #expect(throws: RegStateServiceError.offline(.noInternet)) { _ = try await app.api.send(app.resource) }
        #expect(await app.service.state.session?.connectivity == .offline(.noInternet))
        #expect(try app.device.store.keys().contains("credentials"))
    }

    @Test("cancellation: a cancelled caller stops waiting at once; the renewal goes on, is stored, the others get it")
    func cancellation() async throws {
        let app = try await SelfRenewingApp()
        app.device.clock.advance(by: 3601)
        await app.device.simulator.setHoldsRequests(true)
        let api = app.api
        let cancelled = Task { try await api.send(app.resource) }
        let kept = Task { try await api.send(app.resource) }
        await eventually { await app.service.heldRequestCount == 2 }
        cancelled.cancel()
        await #expect(throws: RegStateServiceError.cancelled) { _ = try await cancelled.value }
        #expect(await app.service.heldRequestCount == 1)
        await app.device.simulator.setHoldsRequests(false)
        #expect(try await kept.value.status == 200)
        #expect(await app.exchanges() == 2)
        #expect(await app.device.simulator.refreshGrantCount == 1)
    }
}
