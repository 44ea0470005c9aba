import Foundation
import Testing
@testable import RegState

/// Numbers a provider, a backend or a damaged disk hands over are input: none of them may trap.
@Suite("Hostile numbers never trap")
struct HostileNumbersTests {
    static let lifetimes: [TimeInterval] = [9.3e18, 1e19, 1.7e308, -9.3e18, .infinity, -.infinity, .nan]

    @Test("a token response describes, debug-describes and dumps any lifetime", arguments: lifetimes)
    func tokenResponseDescription(_ seconds: TimeInterval) {
        let response = TokenResponse(accessToken: "secret-at", expiresIn: seconds, refreshToken: "secret-rt",
                                     refreshExpiresIn: seconds)
        let text = response.description
        #expect(text.contains("expiresIn: \(seconds)"))
        #expect(!text.contains("secret"))
        #expect(String(reflecting: response) == text)
        var dumped = ""
        dump(response, to: &dumped)
        #expect(!dumped.contains("secret"))
    }

    /// Issue 27: out of range is refused where it is read, like any other damage to the answer (it was clamped).
    @Test("a parsed expires_in or refresh_expires_in of 2^63 and beyond is a typed malformed answer",
          arguments: ["9223372036854775808", "1e300", "\"1e300\"", "-1", "253402300800"])
    func parsedHugeLifetime(_ value: String) throws {
        for member in ["expires_in", "refresh_expires_in", "refresh_token_expires_in"] {
            let body = #"{"access_token":"at","token_type":"Bearer","\#(member)":\#(value)}"#
            #expect(throws: OIDCError.malformedResponse("\(member == "expires_in" ? member : "refresh_expires_in") is out of range")) {
                try TokenResponse.parse(HTTPResponse(status: 200, body: Data(body.utf8)))
            }
        }
    }

    @Test("whole lifetimes within range are still shown as whole seconds")
    func ordinaryLifetime() {
        #expect(TokenResponse(accessToken: "a", expiresIn: 3600.7).description.hasSuffix("expiresIn: 3600)"))
        #expect(SecurityTokenGrant(securityToken: "s", expiresIn: 60, registered: true).description
            == "SecurityTokenGrant(securityToken: redacted, expiresIn: 60, registered: true)")
    }

    @Test("a security token grant describes and dumps any lifetime", arguments: lifetimes)
    func grantDescription(_ seconds: TimeInterval) {
        let grant = SecurityTokenGrant(securityToken: "secret-st", expiresIn: seconds, registered: false)
        #expect(grant.description.contains("expiresIn: \(seconds)"))
        #expect(String(reflecting: grant) == grant.description)
        var dumped = ""
        dump(grant, to: &dumped)
        #expect(!dumped.contains("secret"))
    }

    @Test("a JSON number is an Int only when it is whole and exact", arguments: [
        (9_007_199_254_740_991.0, 9_007_199_254_740_991 as Int?), (9.3e18, nil), (1e300, nil), (-9.3e18, nil), (1.5, nil),
    ])
    func intValue(_ number: Double, _ expected: Int?) {
        #expect(JSONValue.number(number).intValue == expected)
    }
}
