import Foundation
import RegState
import RegStateSimulator
import Testing

@Suite("Simulator: signing-key rotation")
struct KeyRotationTests {
    /// The `kid`s the JWKS publishes and the `kid` of a freshly issued ID token.
    private func keyIDs(_ harness: SimulatorHarness) async throws -> (published: [String], signedWith: String?) {
        let response = try await harness.transport.send(
            HTTPRequest(method: .get, url: harness.providerURL("/.well-known/jwks.json")))
        let keySet = try JSONWebKeySet.parse(response.body)
        let tokens = try await harness.signIn(as: "alice@example.com")
        let jwt = try JSONWebToken(compact: try #require(tokens.idToken))
        return (keySet.keys.compactMap(\.keyID), jwt.keyID)
    }

    @Test("after a rotation that keeps the old key, the JWKS lists the new kid first and the old one; tokens use the new")
    func rotationKeepingOldKey() async throws {
        let harness = try SimulatorHarness()
        let oldKeyID = await harness.simulator.signingKeyID
        let newKeyID = try await harness.simulator.rotateSigningKey(keepingOld: true)
        #expect(newKeyID != oldKeyID)
        let (published, signedWith) = try await keyIDs(harness)
        #expect(published == [newKeyID, oldKeyID])
        #expect(signedWith == newKeyID)
    }

    @Test("after a rotation that drops the old key, the JWKS lists only the new kid")
    func rotationDroppingOldKey() async throws {
        let harness = try SimulatorHarness()
        let newKeyID = try await harness.simulator.rotateSigningKey(keepingOld: false)
        let (published, signedWith) = try await keyIDs(harness)
        #expect(published == [newKeyID])
        #expect(signedWith == newKeyID)
    }
}
