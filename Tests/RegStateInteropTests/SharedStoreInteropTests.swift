import Foundation
import RegStateTestSupport
import RegState
import Testing

extension InteropTests {
    /// Several `regstate` processes on one store renewing at once against django-oauth-toolkit, which rotates refresh
    /// tokens with reuse detection and no grace (`OIDC_RT_GRACE` unset: 0): a second grant with the retired token
    /// would revoke the session. The grants are counted in the provider's own database.
    @Suite("Processes sharing a store against django-oauth-toolkit", .provider(.django))
    struct SharedStore {
        static let processes = 4
        static let rounds = 3

        @Test("Given N processes finding one expired token at once, when they renew against django (zero grace), then all are active and the provider issued exactly one refresh token per round")
        func concurrentRenewalsMakeOneGrantPerRound() async throws {
            try await withPeer(.django) { peer in
                let store = FileManager.default.temporaryDirectory
                    .appendingPathComponent("interop-shared-\(UUID().uuidString)", isDirectory: true)
                defer { try? FileManager.default.removeItem(at: store) }
                let common = ["--store", store.path, "--issuer", peer.issuer.absoluteString, "--client-id", peer.clientID]
                try await Self.register(peer, common: common)

                var grants: [Int] = []
                var revoked: [Int] = []
                for _ in 0..<Self.rounds {
                    try Self.expireStoredAccessToken(in: store)
                    let before = try await peer.refreshTokenLedger()
                    let children = try (0..<Self.processes).map { _ in try CLIProcess(common + ["status"]) }
                    for child in children {
                        let result = try await child.finish()
                        #expect(result.status == 0, "stderr: \(result.stderr.suffix(1_500))")
                        #expect(result.lines.first?.hasPrefix("Active") == true, "got: \(result.stdout)")
                    }
                    let after = try await peer.refreshTokenLedger()
                    grants.append(after.issued - before.issued)
                    revoked.append(after.revoked - before.revoked)
                }
                print("SharedStore django: refresh tokens issued per round \(grants), revoked per round \(revoked)")
                #expect(grants == Array(repeating: 1, count: Self.rounds), "refresh grants per round: \(grants)")
                // Each rotation retires exactly the one token it replaced; a reuse would revoke the whole family.
                #expect(revoked == Array(repeating: 1, count: Self.rounds), "revoked per round: \(revoked)")

                let next = try await CLIProcess.run(common + ["status"])
                #expect(next.status == 0 && next.stdout.contains("State: Active"), "next launch: \(next.stdout)")
                let tokens = TokenService(store: try FileSecureStore(directory: store.appendingPathComponent("secure")))
                let refreshToken = try #require(await tokens.snapshot()?.refreshToken)
                #expect(try await peer.isRevoked(refreshToken: refreshToken) == false)
                let logout = try await CLIProcess.run(common + ["logout"])
                #expect(logout.status == 0, "logout: \(logout.stderr.suffix(1_500))")
                #expect(try await peer.isRevoked(refreshToken: refreshToken) == true, "logout revoked it at the provider")
                #expect(try await CLIProcess.run(common + ["status"]).status == 3)
            }
        }

        /// The walkthrough's social path with the user played by the peer's login script: Active H.
        static func register(_ peer: any Peer, common: [String]) async throws {
            let walkthrough = try CLIProcess(common + ["--json", "walkthrough"])
            walkthrough.send(line: "1")
            let authorize = peer.authorizationEndpoint.absoluteString
            let line = try await walkthrough.stderrLine(where: { $0.hasPrefix(authorize) }, what: "the authorization URL")
            let callback = try await peer.login(try #require(URL(string: line)))
            walkthrough.send(line: callback.absoluteString)
            walkthrough.send(line: "1")
            let run = try await walkthrough.finish()
            try #require(run.status == 0, "walkthrough: \(run.stderr.suffix(1_500))")
        }

        /// Moves the stored access token's expiry into the past (no process is running on the store).
        static func expireStoredAccessToken(in store: URL) throws {
            let url = store.appendingPathComponent("secure/credentials")
            let data = try #require(FileManager.default.contents(atPath: url.path))
            var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            object["expires_at"] = 1
            try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: url, options: .atomic)
        }
    }
}
