import Foundation
import Testing
@testable import RegState

/// The one `Retry-After` reader (RFC 9110 §10.2.3), by table, and the errors every endpoint maps it to.
@Suite("Retry-After: delta-seconds and HTTP-date, on 429 and 503 only, capped at an hour")
struct RetryAfterTests {
    static let date = "Sun, 06 Nov 1994 08:49:37 GMT"

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var status: Int
        var headers: [String: String]
        var then: Int?
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "503, delta-seconds", status: 503, headers: ["Retry-After": "30"], then: 30),
        Row(name: "429, delta-seconds with spaces", status: 429, headers: ["Retry-After": " 120 "], then: 120),
        Row(name: "429, zero", status: 429, headers: ["Retry-After": "0"], then: 0),
        Row(name: "a day is capped at an hour", status: 503, headers: ["Retry-After": "86400"], then: 3_600),
        Row(name: "a hostile 40-digit value is the cap, no overflow", status: 503,
            headers: ["Retry-After": String(repeating: "9", count: 40)], then: 3_600),
        Row(name: "HTTP-date, measured against the answer's Date", status: 503,
            headers: ["Retry-After": "Sun, 06 Nov 1994 08:50:37 GMT", "Date": date], then: 60),
        Row(name: "HTTP-date in the past: no wait", status: 429,
            headers: ["Retry-After": "Sun, 06 Nov 1994 08:48:37 GMT", "Date": date], then: 0),
        Row(name: "HTTP-date a week ahead: the cap", status: 503,
            headers: ["Retry-After": "Sun, 13 Nov 1994 08:49:37 GMT", "Date": date], then: 3_600),
        Row(name: "HTTP-date without a Date header: not used", status: 503,
            headers: ["Retry-After": "Sun, 06 Nov 1994 08:50:37 GMT"], then: nil),
        Row(name: "negative: not either form", status: 503, headers: ["Retry-After": "-5"], then: nil),
        Row(name: "a fraction: not either form", status: 503, headers: ["Retry-After": "1.5"], then: nil),
        Row(name: "garbage", status: 429, headers: ["Retry-After": "soon"], then: nil),
        Row(name: "no header", status: 503, headers: [:], then: nil),
        Row(name: "500 with Retry-After: not read", status: 500, headers: ["Retry-After": "30"], then: nil),
        Row(name: "301 with Retry-After: not read", status: 301, headers: ["Retry-After": "30"], then: nil),
    ]

    @Test("RetryAfter.seconds", arguments: rows)
    func seconds(_ row: Row) {
        #expect(RetryAfter.seconds(in: HTTPResponse(status: row.status, headers: row.headers)) == row.then)
    }

    @Test("the provider's 503 with Retry-After is rateLimited (transient) at every endpoint; without it, server(503)")
    func providerErrors() {
        let waiting = HTTPResponse(status: 503, headers: ["Retry-After": "30"])
        #expect(ResponseReading.failure(waiting) == .rateLimited(retryAfter: 30))
        #expect(ResponseReading.failure(waiting).isTransient)
        #expect(ResponseReading.failure(waiting).retryAfter == 30)
        #expect(ResponseReading.failure(HTTPResponse(status: 503)) == .server(status: 503))
        #expect(throws: OIDCError.rateLimited(retryAfter: 30)) { try PushedAuthorizationResponse.parse(waiting) }
        #expect(PasswordlessGrant.refusal(.rateLimited(retryAfter: 30)) == .rateLimited(retryAfter: 30))
    }

    @Test("the backend's 429 with Retry-After is rateLimited (transient); without it, unexpectedStatus(429)")
    func backendErrors() {
        let waiting = HTTPResponse(status: 429, headers: ["Retry-After": "45"])
        #expect(HTTPRegistrationBackend.failure(waiting) == .rateLimited(retryAfter: 45))
        #expect(HTTPRegistrationBackend.failure(waiting).isTransient)
        #expect(HTTPRegistrationBackend.failure(HTTPResponse(status: 429)) == .unexpectedStatus(429, code: nil))
    }
}
