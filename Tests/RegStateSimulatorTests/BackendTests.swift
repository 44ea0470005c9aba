import Foundation
import RegState
import RegStateSimulator
import Testing

@Suite("Simulator: registration backend")
struct BackendTests {
    /// Signs `email` in and returns an ID token.
    static func idToken(_ harness: SimulatorHarness, _ email: String = "alice@example.com") async throws -> String {
        try #require(try await harness.signIn(as: email).idToken)
    }

    static func securityToken(_ response: HTTPResponse) throws -> String {
        #expect(response.status == 200)
        return try #require(response.jsonBody?["security_token"]?.stringValue)
    }

    @Test("exchange, check registration, update the profile, check again")
    func registrationRoundTrip() async throws {
        let harness = try SimulatorHarness()
        let idToken = try await Self.idToken(harness)
        let exchange = try await harness.securityToken(idToken: idToken, installation: "install-1")
        #expect(exchange.jsonBody?["registered"] == false)
        #expect(exchange.jsonBody?["expires_in"] == 3600)
        let token = try Self.securityToken(exchange)

        let before = try await harness.backend(.get, "/v1/registration", token: token)
        #expect(before.jsonBody == ["registered": false, "profile": nil])

        let subject = try #require(try JSONWebToken(compact: idToken).subject)
        let profile: JSONValue = ["sub": .string(subject), "email": "alice@example.com", "name": "Alice Example",
                                  "registration_type": "SOCIAL"]
        let update = try await harness.backend(.put, "/v1/profile", token: token, body: profile)
        #expect(update.status == 200)
        #expect(update.jsonBody == profile)
        #expect(try await harness.backend(.get, "/v1/registration", token: token).jsonBody
                    == ["registered": true, "profile": profile])
        #expect(await harness.simulator.isRegistered(email: "alice@example.com"))

        let again = try await harness.securityToken(idToken: idToken, installation: "install-1")
        #expect(again.jsonBody?["registered"] == true)

        let mismatch = try await harness.backend(.put, "/v1/profile", token: token, body: [
            "sub": "someone-else", "email": "x@example.com", "name": "X", "registration_type": "SOCIAL"])
        #expect(mismatch.status == 403)
        #expect(mismatch.errorCode == "SUBJECT_MISMATCH")
    }

    @Test("an ID token that does not verify is invalid_id_token")
    func badIDToken() async throws {
        let harness = try SimulatorHarness()
        let idToken = try await Self.idToken(harness)
        var parts = idToken.split(separator: ".").map(String.init)
        let claims: JSONValue = ["sub": "mallory", "iss": "https://idp.regstate.sim", "aud": "regstate-cli"]
        parts[1] = Base64URL.encode(claims.serialized())
        let forged = try await harness.securityToken(idToken: parts.joined(separator: "."), installation: "i")
        #expect(forged.status == 401)
        #expect(forged.errorCode == "invalid_id_token")

        // Another client's ID token, signed by the same key and issuer, has the wrong audience.
        let other = try SimulatorHarness(configuration: {
            var configuration = SimulatorHarness.defaultConfiguration
            configuration.clientID = "another-app"
            return configuration
        }())
        let foreign = try await Self.idToken(other)
        let wrongAudience = try await harness.securityToken(idToken: foreign, installation: "i")
        #expect(wrongAudience.status == 401)
        #expect(wrongAudience.errorCode == "invalid_id_token")

        // An expired ID token is refused; the same token was accepted before.
        #expect(try await harness.securityToken(idToken: idToken, installation: "i").status == 200)
        harness.clock.advance(by: 3600)
        let expired = try await harness.securityToken(idToken: idToken, installation: "i")
        #expect(expired.status == 401)
        #expect(expired.errorCode == "invalid_id_token")
    }

    @Test("a new installation beyond the device limit is TOO_MANY_REGISTERED_DEVICES; deleting one frees a slot")
    func deviceLimit() async throws {
        let harness = try SimulatorHarness()
        await harness.simulator.setMaxDevicesPerUser(2)
        let idToken = try await Self.idToken(harness)
        let first = try Self.securityToken(try await harness.securityToken(idToken: idToken, installation: "phone"))
        _ = try Self.securityToken(try await harness.securityToken(idToken: idToken, installation: "tablet"))
        // The same installation again is not a new device.
        _ = try Self.securityToken(try await harness.securityToken(idToken: idToken, installation: "phone"))
        let third = try await harness.securityToken(idToken: idToken, installation: "laptop")
        #expect(third.status == 403)
        #expect(third.errorCode == "TOO_MANY_REGISTERED_DEVICES")
        // Another user is not affected.
        let bob = try await Self.idToken(harness, "bob@example.com")
        #expect(try await harness.securityToken(idToken: bob, installation: "laptop").status == 200)

        #expect(try await harness.backend(.delete, "/v1/installation", token: first).status == 204)
        #expect(await harness.simulator.registeredInstallationCount(for: "alice@example.com") == 1)
        #expect(try await harness.securityToken(idToken: idToken, installation: "laptop").status == 200)
    }

    @Test("more live security tokens than the limit is MAX_NUMBER_SECURITY_TOKEN; expired ones are closed first")
    func securityTokenLimit() async throws {
        let harness = try SimulatorHarness()
        await harness.simulator.setMaxSecurityTokensPerDevice(2)
        await harness.simulator.setLifetimes(idToken: 7200, securityToken: 600)
        let idToken = try await Self.idToken(harness)
        for _ in 0..<2 {
            _ = try Self.securityToken(try await harness.securityToken(idToken: idToken, installation: "phone"))
        }
        let third = try await harness.securityToken(idToken: idToken, installation: "phone")
        #expect(third.status == 403)
        #expect(third.errorCode == "MAX_NUMBER_SECURITY_TOKEN")
        harness.clock.advance(by: 601)
        _ = try Self.securityToken(try await harness.securityToken(idToken: idToken, installation: "phone"))
    }

    @Test("a security token past its lifetime is 401 token_expired")
    func tokenExpired() async throws {
        let harness = try SimulatorHarness()
        let token = try Self.securityToken(
            try await harness.securityToken(idToken: try await Self.idToken(harness), installation: "phone"))
        harness.clock.advance(by: 3599)
        #expect(try await harness.backend(.get, "/v1/registration", token: token).status == 200)
        harness.clock.advance(by: 1)
        let expired = try await harness.backend(.get, "/v1/registration", token: token)
        #expect(expired.status == 401)
        #expect(expired.errorCode == "token_expired")
        #expect(try await harness.backend(.get, "/v1/registration", token: "never-issued").errorCode == "token_expired")
    }

    @Test("forced logout answers FORCED_LOGOUT once per installation, then the installation is gone")
    func forcedLogout() async throws {
        let harness = try SimulatorHarness()
        let idToken = try await Self.idToken(harness)
        let phone = try Self.securityToken(try await harness.securityToken(idToken: idToken, installation: "phone"))
        let tablet = try Self.securityToken(try await harness.securityToken(idToken: idToken, installation: "tablet"))
        #expect(try await harness.simulator.forceLogout(email: "alice@example.com") == 2)

        let first = try await harness.backend(.get, "/v1/registration", token: phone)
        #expect(first.status == 403)
        #expect(first.errorCode == "FORCED_LOGOUT")
        let second = try await harness.backend(.get, "/v1/registration", token: phone)
        #expect(second.status == 401)
        #expect(second.errorCode == "token_expired")
        #expect(try await harness.backend(.get, "/v1/registration", token: tablet).errorCode == "FORCED_LOGOUT")
        #expect(await harness.simulator.registeredInstallationCount(for: "alice@example.com") == 0)
        // Signing in again opens a new session on the same installation.
        #expect(try await harness.securityToken(idToken: idToken, installation: "phone").status == 200)
    }
}
