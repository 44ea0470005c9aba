import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTestSupport

@Suite("Authorized requests (token policy)")
struct AuthorizedTransportTests {
    static let userinfo = URL(string: "https://idp.regstate.sim/userinfo")!

    struct PolicyCase: Sendable, CustomTestStringConvertible {
        let url: String
        let matches: Bool
        var testDescription: String { "\(url) → \(matches)" }
    }

    @Test("only URLs under a validating URL match: scheme, host, port and path prefix", arguments: [
        PolicyCase(url: "https://api.example.com/v1/tickets", matches: true),
        PolicyCase(url: "https://api.example.com/v1", matches: true),
        PolicyCase(url: "https://API.example.com:443/v1/x", matches: true),
        PolicyCase(url: "https://api.example.com/v10/tickets", matches: false),
        PolicyCase(url: "http://api.example.com/v1/tickets", matches: false),
        PolicyCase(url: "https://api.example.com:8443/v1/tickets", matches: false),
        PolicyCase(url: "https://evil.example.com/v1/tickets", matches: false),
        PolicyCase(url: "https://api.example.com.evil.com/v1/tickets", matches: false),
    ])
    func policyMatching(_ policyCase: PolicyCase) throws {
        let policy = TokenPolicy(validatingURLs: [try #require(URL(string: "https://api.example.com/v1/"))])
        #expect(policy.matches(try #require(URL(string: policyCase.url))) == policyCase.matches)
    }

    static let resource = URL(string: "https://api.regstate.sim/v1/resource")!

    @Test("a request the policy does not list never carries the token; a listed one carries the live access token")
    func unlistedRequestCarriesNoToken() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        let subject = try #require(await harness.simulator.user(email: "alice@example.com")).subject
        let tickets = Self.resource.appendingPathComponent("tickets")
        let unlisted = try await AuthorizedTransport(base: harness.simulator.transport, service: service,
                                                     policy: TokenPolicy(validatingURLs: [URL(string: "https://api.regstate.sim/v2")!]))
            .send(HTTPRequest(method: .get, url: tickets))
        #expect(unlisted.status == 401)
        let listed = try await AuthorizedTransport(base: harness.simulator.transport, service: service,
                                                   policy: TokenPolicy(validatingURLs: [Self.resource]))
            .send(HTTPRequest(method: .get, url: tickets))
        #expect(listed.status == 200)
        #expect(await harness.simulator.resourceRequests == [
            ResourceRequest(path: "/v1/resource/tickets", bearer: .none),
            ResourceRequest(path: "/v1/resource/tickets", bearer: .accepted(subject: subject)),
        ])
    }

    @Test("20 requests rejected at once: one notice, one refresh, every request retried with the new token")
    func manyRejectionsOneRenewal() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        let tokens = TokenService(store: harness.store, clock: harness.clock)
        let old = try #require(await tokens.snapshot()?.accessToken)
        // The server stops accepting the token although it has not expired locally.
        _ = try await harness.simulator.transport.send(.form(
            url: URL(string: "https://idp.regstate.sim/oauth/revoke")!,
            parameters: [("token", old), ("token_type_hint", "access_token"), ("client_id", "regstate-cli")]))
        await harness.simulator.resetCounters()
        let transport = AuthorizedTransport(base: harness.simulator.transport, service: service,
                                            policy: TokenPolicy(validatingURLs: [Self.userinfo]))
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await transport.send(HTTPRequest(method: .get, url: Self.userinfo)).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 20))
        #expect(await harness.simulator.refreshGrantCount == 1)
        let notices = try await service.journalEntries().filter { $0.event == .renewalRequested(.backendUnauthorized) }
        #expect(notices.count == 1)
        #expect(await service.state.letter == "C")
    }

    @Test("when renewal is refused, the request fails with the server's response and the session ends")
    func refusedRenewalReturnsOriginalResponse() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        let old = try #require(await TokenService(store: harness.store, clock: harness.clock).snapshot()?.accessToken)
        _ = try await harness.simulator.transport.send(.form(
            url: URL(string: "https://idp.regstate.sim/oauth/revoke")!,
            parameters: [("token", old), ("token_type_hint", "access_token"), ("client_id", "regstate-cli")]))
        await harness.simulator.setRefusesRefresh(true)
        let transport = AuthorizedTransport(base: harness.simulator.transport, service: service,
                                            policy: TokenPolicy(validatingURLs: [Self.userinfo]))
        let response = try await transport.send(HTTPRequest(method: .get, url: Self.userinfo))
        #expect(response.status == 401)
        #expect(await service.state == .registrationRequired)
    }
}

@Suite("Session end and local state")
struct SessionEndTests {
    @Test("a FORCED_LOGOUT answer through the authorized transport ends the session: E, storage cleared, D")
    func forcedLogoutFromBackend() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        var tape = await EventTape(service)
        _ = await tape.next(1)
        let subject = try #require(await harness.simulator.user(email: "alice@example.com")).subject
        // The host's API call carries the provider token; the host's backend answers with a forced logout.
        await harness.simulator.setForcesLogoutAtResource(true)
        let transport = AuthorizedTransport(base: harness.simulator.transport, service: service,
                                            policy: TokenPolicy(validatingURLs: [AuthorizedTransportTests.resource]))
        let response = try await transport.send(HTTPRequest(method: .get, url: AuthorizedTransportTests.resource))
        #expect(response.status == 403)
        #expect(await harness.simulator.resourceRequests.map(\.bearer) == [.accepted(subject: subject)])
        #expect(await service.state == .registrationRequired)
        #expect(await tape.next(2) == ["Error E", "Registration Required D"])
        #expect(try harness.store.data(forKey: TokenService.credentialsKey) == nil)
    }

    @Test("clear-state removes tokens, installation id and journal; the next registration gets a new installation id")
    func clearStateMakesANewInstallation() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService()
        let first = try #require(try harness.store.data(forKey: TokenService.installationKey))
        let removed = await service.clearState()
        #expect(Set(removed.removedKeys) == [TokenService.credentialsKey, TokenService.installationKey])
        #expect(removed.installation == .deregistered, "the backend forgot the installation")
        #expect(await service.state == .registrationRequired)
        #expect(try await service.journalEntries().map(\.event) == [.credentialsCleared])
        try await harness.signIn(service, as: "alice@example.com")
        try await service.confirmRegistration()
        let second = try #require(try harness.store.data(forKey: TokenService.installationKey))
        #expect(first != second)
    }

    @Test("a long journal is compacted at launch into a snapshot of its fold, and the service folds to the same state")
    func journalCompaction() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        // Many earlier launches, as an app accumulates them over months.
        var sequence = try harness.journal.read().lines.count
        for _ in 0..<(RegStateService.journalCompactionThreshold / 2 + 1) {
            for event in [MachineEvent.launched(isNative: true), .storedTokensInspected(.valid(TransitionTable.stored))] {
                sequence += 1
                try harness.journal.append(try JournalEntry(sequence: sequence, recordedAt: harness.clock.now(), event: event).encoded())
            }
        }
        #expect(try harness.journal.read().lines.count > RegStateService.journalCompactionThreshold)
        let service = harness.launch()
        #expect(await service.start().letter == "B")
        let entries = try await service.journalEntries()
        // The history is folded into the snapshot line; the entries after it are this launch's.
        #expect(entries.map(\.event.name) == ["launched", "storedTokensInspected"])
        #expect(try harness.journal.read().lines.count == 3, "snapshot + this launch's two entries")
        #expect(JournalEntry.fold(entries) == (await service.state))
        #expect(entries.map(\.sequence) == entries.map(\.sequence).sorted())
    }
}
