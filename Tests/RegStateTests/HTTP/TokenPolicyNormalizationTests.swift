import Foundation
import Testing
@testable import RegState

/// The policy matches normalised URLs: what a server would route, not what the text looks like.
@Suite("Token policy: normalised URL matching")
struct TokenPolicyNormalizationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let url: String
        let matches: Bool
        var testDescription: String { "\(url) → \(matches)" }
        init(_ url: String, _ matches: Bool) {
            self.url = url
            self.matches = matches
        }
    }

    static let cases: [Case] = [
        // Scheme and host without case, the effective port.
        Case("HTTPS://Api.Example.COM/v1/tickets", true),
        Case("https://api.example.com:443/v1/tickets", true),
        Case("https://api.example.com:444/v1/tickets", false),
        Case("http://api.example.com:443/v1/tickets", false),
        // Segment boundaries.
        Case("https://api.example.com/v1", true),
        Case("https://api.example.com/v1/", true),
        Case("https://api.example.com/v1x", false),
        Case("https://api.example.com/V1/tickets", false),
        Case("https://api.example.com/", false),
        Case("https://api.example.com", false),
        // Dot segments, plain and escaped.
        Case("https://api.example.com/v1/../admin", false),
        Case("https://api.example.com/v1/./../admin", false),
        Case("https://api.example.com/v1/%2e%2e/admin", false),
        Case("https://api.example.com/v1/%2E%2E/admin", false),
        Case("https://api.example.com/v1/.%2e/admin", false),
        Case("https://api.example.com/v1/tickets/../orders", true),
        Case("https://api.example.com/v1/./tickets", true),
        Case("https://api.example.com/admin/../v1/tickets", true),
        Case("https://api.example.com/../../v1/tickets", true),
        // Unreserved escapes are the same characters.
        Case("https://api.example.com/%76%31/tickets", true),
        Case("https://api.example.com/v1/%7Euser", true),
        // What a server could still decode into another path never matches.
        Case("https://api.example.com/v1/..%2fadmin", false),
        Case("https://api.example.com/v1%2f..%2fadmin", false),
        Case("https://api.example.com/v1/..%5Cadmin", false),
        Case("https://api.example.com/v1/%252e%252e/admin", false),
        Case("https://api.example.com/v1/..;/admin", false),
        Case("https://api.example.com/v1/%zz", false),
        Case("https://api.example.com/v1/%2", false),
        // Other schemes and no host.
        Case("ftp://api.example.com/v1/tickets", false),
        Case("file:///v1/tickets", false),
    ]

    @Test("request URLs against the prefix https://api.example.com/v1", arguments: cases)
    func matching(_ testCase: Case) throws {
        let policy = TokenPolicy(validatingURLs: [try #require(URL(string: "https://api.example.com/v1"))])
        #expect(policy.matches(try #require(URL(string: testCase.url))) == testCase.matches)
    }

    @Test("a prefix written with a trailing slash, escapes or dot segments means the same prefix")
    func prefixForms() throws {
        let url = try #require(URL(string: "https://api.example.com/v1/tickets"))
        for prefix in ["https://api.example.com/v1/", "https://API.example.com:443/%76%31", "https://api.example.com/x/../v1"] {
            #expect(TokenPolicy(validatingURLs: [try #require(URL(string: prefix))]).matches(url), "\(prefix)")
        }
        let unsafe = try #require(URL(string: "https://api.example.com/v1%2Fadmin"))
        #expect(!TokenPolicy(validatingURLs: [unsafe]).matches(url))
    }

    @Test("a root prefix covers every path of its origin, and only of its origin")
    func rootPrefix() throws {
        let policy = TokenPolicy(validatingURLs: [try #require(URL(string: "https://api.example.com"))])
        #expect(policy.matches(try #require(URL(string: "https://api.example.com/anything/at/all"))))
        #expect(policy.matches(try #require(URL(string: "https://api.example.com"))))
        #expect(!policy.matches(try #require(URL(string: "https://api.example.com:8443/x"))))
    }

    @Test("IPv6 and loopback hosts normalise too")
    func ipv6() throws {
        let policy = TokenPolicy(validatingURLs: [try #require(URL(string: "http://[::1]:8080/api"))])
        #expect(policy.matches(try #require(URL(string: "http://[::1]:8080/api/x"))))
        #expect(!policy.matches(try #require(URL(string: "http://[::1]:8081/api/x"))))
    }
}
