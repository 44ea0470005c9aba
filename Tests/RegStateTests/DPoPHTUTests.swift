import Foundation
import Testing
@testable import RegState

@Suite("DPoP htu fast path")
struct DPoPHTUTests {
    @Test("the plain path gives what URLComponents gives, and declines what it cannot judge", arguments: [
        "https://api.regstate.sim/v1/userinfo?x=1",
        "https://api.regstate.sim/v1/userinfo#frag",
        "http://127.0.0.1:8080/api/oidc/token",
        "https://Host.Example:443/a/b%20c?q=1#f",
        "https://api.regstate.sim",
        "https://api.regstate.sim?x=1",
    ])
    func sameAsComponents(_ text: String) throws {
        let url = try #require(URL(string: text))
        var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: true))
        components.query = nil
        components.fragment = nil
        #expect(DPoPProofSigner.plainHTU(text) == components.string)
        #expect(try DPoPProofSigner.htu(for: url) == components.string)
    }

    @Test("user info, other schemes and upper-case schemes go the general way", arguments: [
        "https://user:pw@api.regstate.sim/v1", "HTTPS://api.regstate.sim/v1", "ftp://host/x", "https:///path",
    ])
    func declined(_ text: String) {
        #expect(DPoPProofSigner.plainHTU(text) == nil)
    }
}
