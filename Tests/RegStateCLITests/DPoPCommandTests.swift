import Foundation
import RegState
import Testing

/// `--dpop`, `--sim-dpop`, `--sim-dpop-nonce` and the binding `status` shows.
@Suite("CLI DPoP")
struct DPoPCommandTests {
    @Test("Given DPoP allowed with nonces, when a device registers and renews, then status shows the binding and the key's thumbprint, never the key")
    func statusShowsBinding() async throws {
        let device = try CLIScenario()
        try await device.registerSocially(["--sim-dpop", "allowed", "--sim-dpop-nonce"])
        let keyFile = device.store.appendingPathComponent("secure/dpop-key")
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let record = try #require(FileManager.default.contents(atPath: keyFile.path))
        let pkcs8 = try #require(try JSONValue.parse(record)["pkcs8"]?.stringValue)
        // A renewal with the bound refresh token (the run's clock is past the token's expiry), then the binding line.
        let status = try await device.run(["status", "--sim-dpop", "allowed", "--sim-dpop-nonce", "--sim-advance", "3700"])
        #expect(status.lines.first?.hasPrefix("Active C") == true)
        let line = try #require(status.lines.first { $0.hasPrefix("Token binding: DPoP (key thumbprint ") })
        let thumbprint = String(line.dropFirst("Token binding: DPoP (key thumbprint ".count).dropLast())
        #expect(thumbprint.count == 43)
        let json = try await device.run(["status", "--json"])
        #expect(json.stdout.contains(#""jkt":"\#(thumbprint)""#))
        #expect(json.stdout.contains(#""token_binding":"dpop""#))
        for result in device.results { #expect(!result.stdout.contains(pkcs8) && !result.stderr.contains(pkcs8)) }
        device.expectNoSecretsPrinted()
        // Logout removes the key with the credentials.
        #expect(try await device.run(["logout"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: keyFile.path))
    }

    @Test("Given --dpop required against a simulator without DPoP, when registering, then a typed failure F")
    func requiredNotOffered() async throws {
        let device = try CLIScenario()
        let result = try await device.run(["--dpop", "required"], input: "1\nalice@example.com\n1\n")
        #expect(result.stdout.contains("Error F") || result.stderr.contains("Error F"))
        #expect((result.stdout + result.stderr).contains("does not offer ES256 proofs"))
    }

    @Test("Given a bearer session, status says it is unbound; bad --dpop values are usage errors")
    func bearerAndUsage() async throws {
        let device = try CLIScenario()
        try await device.registerSocially()
        #expect(try await device.run(["status"]).lines.contains("Token binding: bearer (unbound)"))
        #expect(try await device.run(["status", "--dpop", "sometimes"]).status == 2)
        #expect(try await device.run(["status", "--sim-dpop", "advertised-only"]).status == 2)
    }
}
