import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import RegState
import RegStateURLSession
import RegStateTesting
import RegStateSimulator

@Suite("The policy in the app's own URLSession and URLRequests")
struct URLProtocolTests {
    @Test("a URLSession configured with RegStateURLProtocol carries the security token to the backend's URLs")
    func sessionCarriesToken() async throws {
        // Its own backend host: on Linux the protocol finds a session's policy by the URLs it lists.
        let app = try await SelfRenewingApp { $0.backendURL = URL(string: "https://api-one.regstate.sim")! }
        let configuration = RegStateURLProtocol.configure(.ephemeral, service: app.service, policy: app.policy,
                                                          base: app.device.simulator.transport)
        let session = URLSession(configuration: configuration)
        let (data, response) = try await session.data(from: app.resource.url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let subject = try #require(await app.device.simulator.user(email: "alice@example.com")).subject
        #expect(String(decoding: data, as: UTF8.self).contains(subject))
        #expect(await app.device.simulator.resourceRequests.last?.bearer == .accepted(subject: subject))
    }

    @Test("through URLSession: expiry renews once for many requests; a backend that keeps rejecting fails the call")
    func sessionRenewsOnceAndFails() async throws {
        let app = try await SelfRenewingApp { $0.backendURL = URL(string: "https://api-two.regstate.sim")! }
        let session = URLSession(configuration: RegStateURLProtocol.configure(
            .ephemeral, service: app.service, policy: app.policy, base: app.device.simulator.transport))
        app.device.clock.advance(by: 3601)
        let url = app.resource.url
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask { ((try await session.data(from: url)).1 as? HTTPURLResponse)?.statusCode ?? 0 }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 20))
        // Confirmation and the renewed ID token's exchange (the expired one is not offered).
        #expect(await app.exchanges() == 2)
        #expect(await app.device.simulator.refreshGrantCount == 1)
        await app.device.simulator.setResourceRejectsEveryToken(true)
        await #expect(throws: (any Error).self) { _ = try await session.data(from: url) }
        await #expect(throws: (any Error).self) { _ = try await session.data(from: url) }
        #expect(await app.exchanges() == 3)
    }

    @Test("authorize(&request) sets the token the policy names and leaves an unlisted request untouched")
    func authorizeOwnRequest() async throws {
        let app = try await SelfRenewingApp()
        var listed = URLRequest(url: app.resource.url)
        try await app.service.authorize(&listed, policy: app.policy)
        let header = try #require(listed.value(forHTTPHeaderField: "Authorization"))
        #expect(header.hasPrefix("Bearer "))
        let response = try await app.device.simulator.transport.send(
            HTTPRequest(method: .get, url: app.resource.url, headers: ["Authorization": header]))
        #expect(response.status == 200)
        var unlisted = URLRequest(url: URL(string: "https://elsewhere.example.com/v1/resource")!)
        try await app.service.authorize(&unlisted, policy: app.policy)
        #expect(unlisted.value(forHTTPHeaderField: "Authorization") == nil)
    }
}
