import Foundation
import RegStateTestSupport
import Testing

/// `regstate ongoing-access authorize|fetch` through the built binary, one store per test.
@Suite("CLI ongoing-access")
struct OngoingAccessCommandTests {
    /// A temporary store and every output, to prove no token was printed.
    final class Device {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("regstate-ongoing-\(UUID().uuidString)")
        private(set) var outputs: [String] = []
        private(set) var secrets: Set<String> = []

        deinit { try? FileManager.default.removeItem(at: store) }

        @discardableResult
        func run(_ arguments: [String], input: String = "") async throws -> CLIResult {
            let result = try await CLIProcess.run(["ongoing-access"] + arguments + ["--store", store.path], input: input)
            outputs.append(result.stdout + result.stderr)
            secrets.formUnion(try storedSecrets())
            return result
        }

        /// The token values in the store's ongoing-access record.
        func storedSecrets() throws -> Set<String> {
            guard let data = FileManager.default.contents(atPath: store.appendingPathComponent("secure/ongoing-access").path),
                  let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let token = object["token"] as? [String: Any]
            else { return [] }
            return Set(["access_token", "refresh_token"].compactMap { token[$0] as? String })
        }

        func expectNoSecretsPrinted() {
            #expect(!secrets.isEmpty)
            for output in outputs {
                #expect(!secrets.contains { output.contains($0) }, "a token appeared in the output")
                #expect(!output.contains("PRIVATE KEY"))
            }
        }
    }

    @Test("Given consent, when fetch restores, then no refresh, accounts and files in scope, one file fetched")
    func authorizeThenFetch() async throws {
        let device = Device()
        let authorized = try await device.run(["authorize", "--scope-from", "2026-03-01", "--scope-to", "2026-06-30"],
                                              input: "y\n")
        #expect(authorized.status == 0, "\(authorized.stderr)")
        #expect(authorized.stdout.contains("Ongoing access authorized (scope 2026-03-01 to 2026-06-30)"))
        #expect(authorized.stderr.contains("[y/n]"))
        let fetched = try await device.run(["fetch"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stdout.contains("Ongoing access restored\n"))
        #expect(fetched.stdout.contains("the stored token was still valid"))
        #expect(fetched.stdout.contains("File file-2: acc-music, 2026-03-10\nFile file-3: acc-fitness, 2026-04-02\n"
                                        + "File file-4: acc-music, 2026-06-21\n"))
        #expect(!fetched.stdout.contains("file-1"))
        #expect(fetched.stdout.contains("Fetched file-2: {\"genre\":\"ambient\",\"plays\":17}"))
        device.expectNoSecretsPrinted()
    }

    @Test("Given an expired access token, when fetch runs, then it says the token was refreshed and stores the new one")
    func fetchRefreshes() async throws {
        let device = Device()
        // A one-second access token is inside the 30-second grace period at once: the next fetch must refresh.
        try await device.run(["authorize", "--sim-access-ttl", "1"], input: "y\n")
        let before = try device.storedSecrets()
        let fetched = try await device.run(["fetch", "--json"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        let lines = fetched.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains(#""event":"refreshed""#) == true)
        #expect(lines.dropFirst().first == #"{"event":"restored","refreshed":true}"#)
        #expect(lines.contains { $0.contains(#""result":"restored""#) && $0.contains(#""refreshed":true"#) })
        #expect(try device.storedSecrets() != before)
        device.expectNoSecretsPrinted()
    }

    @Test("Given an expired refresh token, then --no-auto-recover exits 3 and fetch without it asks for consent again")
    func expiredRefreshToken() async throws {
        let device = Device()
        try await device.run(["authorize", "--sim-refresh-ttl", "1"], input: "y\n")
        let stored = try device.storedSecrets()
        let refused = try await device.run(["fetch", "--no-auto-recover"])
        #expect(refused.status == 3)
        #expect(refused.stdout == "The ongoing-access token has expired\n")
        #expect(try device.storedSecrets() == stored)
        let declined = try await device.run(["fetch"], input: "n\n")
        #expect(declined.status == 1)
        #expect(declined.stdout.hasPrefix("The refresh token has expired: consent is needed again\n"))
        #expect(try device.storedSecrets() == stored)
        let again = try await device.run(["fetch"], input: "y\n")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("Authorized with consent"))
        #expect(again.stdout.contains("Fetched file-1"))
        device.expectNoSecretsPrinted()
    }

    @Test("Given no stored token, fetch exits 3; bad ongoing-access usage exits 2", arguments: [
        ["frobnicate"], ["authorize", "--no-auto-recover"], ["fetch", "--scope-from", "yesterday"],
        ["fetch", "--scope-from", "2026-05-01", "--scope-to", "2026-04-01"], ["authorize", "fetch"],
    ])
    func usage(_ arguments: [String]) async throws {
        let device = Device()
        let empty = try await device.run(["fetch"])
        #expect(empty.status == 3)
        #expect(empty.stderr.contains("No ongoing-access token is stored"))
        let bad = try await device.run(arguments)
        #expect(bad.status == 2)
        #expect(bad.stdout.isEmpty)
        #expect(bad.stderr.hasPrefix("regstate: "))
    }
}

extension OngoingAccessCommandTests {
    @Test("ongoing-access --help shows its usage and the shared options; the tool's help lists it")
    func help() async throws {
        let result = try await CLIProcess.run(["ongoing-access", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Usage: regstate ongoing-access authorize"))
        #expect(result.stdout.contains("--no-auto-recover"))
        #expect(result.stdout.contains("--store DIR"))
        let tool = try await CLIProcess.run(["--help"])
        #expect(tool.stdout.contains("ongoing-access authorize|fetch"))
    }
}
