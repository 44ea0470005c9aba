import Foundation
import RegState
import RegStateOngoingAccess
import RegStateTestSupport
import RegStateTesting
import RegStateSimulator
import Testing

@Suite("Simulator: a persisted world shared between instances")
struct PersistenceTests {
    /// A fresh directory under the temporary directory, removed by the caller.
    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("regstate-sim-\(UUID().uuidString)")
    }

    @Test("a refresh token issued by one instance renews in the next, with the same signing key")
    func refreshAcrossInstances() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock()
        // No shared key: the first instance generates the world's key, the second must reload it.
        let first = try SimulatorHarness(configuration: SimulatorConfiguration(), clock: clock, persistence: directory)
        let tokens = try await first.signIn(as: "dora@example.com")
        _ = try await first.startPasswordless("dora@example.com")
        let keyID = await first.simulator.signingKeyID

        let second = try SimulatorHarness(configuration: SimulatorConfiguration(), clock: clock, persistence: directory)
        #expect(await second.simulator.signingKeyID == keyID)
        let dora = try #require(await first.simulator.user(email: "dora@example.com"))
        #expect(try #require(await second.simulator.user(email: "dora@example.com")) == dora)
        let inbox = await first.simulator.inbox(for: "dora@example.com")
        #expect(inbox.count == 1)
        #expect(await second.simulator.inbox(for: "dora@example.com") == inbox)
        #expect(await second.simulator.tokenRequestCount == 1)
        #expect(try await second.userinfo(tokens.accessToken).status == 200)
        let renewed = try second.tokens(from: try await second.refresh(try #require(tokens.refreshToken)))

        // The renewed ID token verifies with the JWKS served by the first instance: one key, one world.
        let jwks = try await first.transport.send(
            HTTPRequest(method: .get, url: first.providerURL("/.well-known/jwks.json")))
        let key = try #require(try JSONWebKeySet.parse(jwks.body).key(withID: keyID))
        let idToken = try JSONWebToken(compact: try #require(renewed.idToken))
        #expect(try idToken.verifySignature(with: key.rsaPublicKey(), crypto: SystemCrypto()))

        // The rotation was saved: a third instance sees the original token as used (reuse → invalid_grant).
        let third = try SimulatorHarness(configuration: SimulatorConfiguration(), clock: clock, persistence: directory)
        #expect(try await third.refresh(try #require(tokens.refreshToken)).errorCode == "invalid_grant")
    }

    @Test("the world file holds no bearer token in clear")
    func noTokensInFile() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let harness = try SimulatorHarness(persistence: directory)
        let tokens = try await harness.signIn()
        let contents = try String(
            contentsOf: directory.appendingPathComponent("simulator-world.json"), encoding: .utf8)
        #expect(!contents.isEmpty)
        #expect(!contents.contains(tokens.accessToken))
        #expect(!contents.contains(try #require(tokens.refreshToken)))
        let attributes = try FileManager.default.attributesOfItem(
            atPath: directory.appendingPathComponent("simulator-world.json").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("a file that is not a world is reported, not overwritten")
    func unreadableWorld() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("simulator-world.json")
        try Data("not json".utf8).write(to: file)
        #expect(throws: SimulatorError.worldUnreadable(
            "\(file.path) is not a simulator world; move it aside to start a new world")) {
            try Simulator(persistence: directory)
        }
        #expect(try Data(contentsOf: file) == Data("not json".utf8))
    }
}
