import Foundation
import Testing
import RegState

/// ``IDTokenValidator/checkAuthentication(of:meets:now:)`` at its edges: `auth_time` required with `max_age`, the
/// leeway on both sides, hostile numbers, `acr` only when required.
@Suite("Step-up: the ID token's auth_time and acr checks")
struct StepUpIDTokenCheckTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let validator = IDTokenValidator(issuer: "https://issuer.example.com", clientID: "app", leeway: 60)

    /// An unsigned token carrying `claims` (the check reads claims of a token already validated).
    func token(_ claims: [String: JSONValue]) throws -> JSONWebToken {
        let header = Base64URL.encode(Data(#"{"alg":"RS256"}"#.utf8))
        let payload = Base64URL.encode(JSONValue.object(claims).serialized())
        return try JSONWebToken(compact: "\(header).\(payload).c2ln")
    }

    func check(_ claims: [String: JSONValue], _ requirement: AuthenticationRequirement) throws(IDTokenError) {
        let parsed: JSONWebToken
        do { parsed = try token(claims) } catch { throw .malformed("test token") }
        try validator.checkAuthentication(of: parsed, meets: requirement, now: now)
    }

    var seconds: Double { now.timeIntervalSince1970 }

    @Test("max_age: auth_time required, accepted up to max_age plus the leeway, refused one second later")
    func maxAgeWindow() throws {
        let requirement = AuthenticationRequirement(maxAge: 300)
        #expect(throws: IDTokenError.authTimeMissing) { try check([:], requirement) }
        #expect(throws: IDTokenError.authTimeMissing) { try check(["auth_time": "1800000000"], requirement) }
        try check(["auth_time": .number(seconds - 360)], requirement)
        #expect(throws: IDTokenError.authenticationTooOld(authenticatedAt: now.addingTimeInterval(-361))) {
            try check(["auth_time": .number(seconds - 361)], requirement)
        }
        // max_age=0: a sign-in now, within the leeway.
        try check(["auth_time": .number(seconds - 60)], AuthenticationRequirement(maxAge: 0))
        #expect(throws: IDTokenError.self) { try check(["auth_time": .number(seconds - 61)], AuthenticationRequirement(maxAge: 0)) }
    }

    @Test("auth_time later than now plus the leeway, negative, or past 9999 is not a sane time", arguments: [61.0, -2e9, 3e11])
    func hostileAuthTime(offset: Double) {
        #expect(throws: IDTokenError.invalidTimeClaim("auth_time")) {
            try check(["auth_time": .number(offset > 0 && offset < 1e6 ? seconds + offset : offset)], AuthenticationRequirement(maxAge: 300))
        }
    }

    @Test("without max_age nothing about auth_time is required; acr only when required")
    func acrOnlyWhenRequired() throws {
        try check([:], .none)
        try check([:], AuthenticationRequirement(acrValues: ["gold"]))
        #expect(throws: IDTokenError.acrNotAccepted(nil)) { try check([:], AuthenticationRequirement(acrValues: ["gold"], acrRequired: true)) }
        #expect(throws: IDTokenError.acrNotAccepted("silver")) {
            try check(["acr": "silver"], AuthenticationRequirement(acrValues: ["gold"], acrRequired: true))
        }
        try check(["acr": "gold"], AuthenticationRequirement(acrValues: ["silver", "gold"], acrRequired: true))
        #expect(throws: IDTokenError.acrNotAccepted(nil)) {
            try check(["acr": 3], AuthenticationRequirement(acrValues: ["3"], acrRequired: true))
        }
    }
}
