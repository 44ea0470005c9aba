import Foundation
import Testing

@testable import RegState
import RegStateSimulator
import RegStateTesting

/// The simulator's RFC 9449 §4.3 checks: each defect the library can be made to send (through the test seam) is
/// refused for its own reason; a well-formed proof passes and yields the key's thumbprint.
@Suite("DPoP §4.3 checks (simulator verifier)")
struct DPoPVerifierTests {
    let crypto = SystemCrypto()
    let now = Date(timeIntervalSince1970: 1_782_864_000)
    let url = URL(string: "https://api.regstate.sim/v1/userinfo") ?? URL(fileURLWithPath: "/")

    func check(_ defect: DPoPProofDefect?, nonce: String? = "n-1", twice: Bool = false) throws -> DPoPProofRefusal? {
        var signer = DPoPProofSigner(key: try DPoPKey.generate(crypto: crypto), crypto: crypto)
        signer.defect = defect
        let verifier = DPoPProofVerifier(crypto: crypto)
        do {
            for _ in 0..<(twice ? 2 : 1) {
                let proof = try signer.proof(method: "GET", url: url, accessToken: "at-1", nonce: nonce, now: now)
                let jkt = try verifier.verify(proof, method: "GET", url: url, accessToken: "at-1",
                                              expectedNonce: "n-1", now: now)
                #expect(jkt == signer.key.thumbprint)
            }
            return nil
        } catch let refusal as DPoPProofRefusal {
            return refusal
        }
    }

    @Test("a well-formed proof passes, twice (fresh jti each time), and yields the key's thumbprint")
    func accepted() throws { #expect(try check(nil, twice: true) == nil) }
    @Test("typ other than dpop+jwt → refused") func typ() throws { #expect(try check(.wrongType) == .wrongType) }
    @Test("symmetric alg → refused") func alg() throws { #expect(try check(.symmetricAlgorithm) == .algorithmNotAllowed) }
    @Test("signed by another key than the embedded jwk → refused")
    func signature() throws { #expect(try check(.signedByAnotherKey) == .badSignature) }
    @Test("private member in jwk → refused") func privateMember() throws { #expect(try check(.privateKeyMember) == .privateKeyMember) }
    @Test("htm mismatch → refused") func htm() throws { #expect(try check(.wrongMethod) == .wrongMethod) }
    @Test("htu mismatch → refused") func htu() throws { #expect(try check(.wrongURL) == .wrongURL) }
    @Test("iat outside the window → refused") func iat() throws { #expect(try check(.staleIssueTime) == .issueTimeOutsideWindow) }
    @Test("jti replayed → refused on the second use") func jti() throws { #expect(try check(.fixedJTI, twice: true) == .replayed) }
    @Test("required nonce missing → refused") func nonce() throws { #expect(try check(.noNonce) == .nonceRequired) }
    @Test("ath of another token → refused") func ath() throws { #expect(try check(.wrongAccessTokenHash) == .wrongAccessTokenHash) }
    @Test("a stale nonce → refused") func staleNonce() throws { #expect(try check(nil, nonce: "n-0") == .nonceRequired) }
}
