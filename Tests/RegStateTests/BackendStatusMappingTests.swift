import Foundation
import Testing
@testable import RegState
import RegStateSimulator

@Suite("Backend client: requests and status mapping")
struct BackendStatusMappingTests {
    static let base = URL(string: "https://api.test/")!
    static let installation = InstallationInfo(installationID: "inst-1", platform: "linux", formFactor: "80x24")

    static let mapping: [(HTTPResponse, BackendError)] = [
        (.json(401, ["error": "invalid_id_token"]), .invalidIDToken),
        (.json(401, ["error": "token_expired"]), .unauthorized),
        (HTTPResponse(status: 401), .unauthorized),
        (.json(403, ["error": "FORCED_LOGOUT"]), .forcedLogout),
        (.json(403, ["error": "TOO_MANY_REGISTERED_DEVICES"]), .tooManyRegisteredDevices),
        (.json(403, ["error": "MAX_NUMBER_SECURITY_TOKEN"]), .maxSecurityTokens),
        (.json(403, ["error": "SUBJECT_MISMATCH"]), .unexpectedStatus(403, code: "SUBJECT_MISMATCH")),
        (.json(400, ["error": "invalid_request"]), .unexpectedStatus(400, code: "invalid_request")),
        (HTTPResponse(status: 503), .unexpectedStatus(503, code: nil)),
        (OIDCFixtures.raw(200, "not json", contentType: "text/plain"), .malformedResponse("the security token response is not JSON")),
        (.json(200, ["expires_in": 60, "registered": false]), .malformedResponse("no security_token")),
    ]

    @Test("Security token responses map to typed errors", arguments: mapping)
    func securityTokenErrors(_ response: HTTPResponse, _ expected: BackendError) async {
        let backend = HTTPRegistrationBackend(baseURL: Self.base, transport: OIDCCannedTransport { _ in response })
        await #expect(throws: expected) {
            try await backend.securityToken(idToken: "id", installation: Self.installation)
        }
    }

    static let bearerMapping: [(HTTPResponse, BackendError)] = [
        (.json(401, ["error": "token_expired"]), .unauthorized),
        (.json(403, ["error": "FORCED_LOGOUT"]), .forcedLogout),
        (HTTPResponse(status: 500), .unexpectedStatus(500, code: nil)),
    ]

    @Test("Every bearer endpoint maps 401 and FORCED_LOGOUT the same way", arguments: bearerMapping)
    func bearerErrors(_ response: HTTPResponse, _ expected: BackendError) async {
        let backend = HTTPRegistrationBackend(baseURL: Self.base, transport: OIDCCannedTransport { _ in response })
        await #expect(throws: expected) { try await backend.registration(securityToken: "st") }
        await #expect(throws: expected) {
            try await backend.updateProfile(Profile(subject: "s", issuer: "i"), registrationType: .social,
                                            securityToken: "st")
        }
        await #expect(throws: expected) { try await backend.deleteInstallation(securityToken: "st") }
    }

    @Test("Transient classification", arguments: [
        (BackendError.transport(.offline), true), (.unexpectedStatus(502, code: nil), true),
        (.unexpectedStatus(429, code: nil), true), (.malformedResponse("x"), true),
        (.unexpectedStatus(400, code: nil), false), (.unauthorized, false), (.forcedLogout, false),
        (.tooManyRegisteredDevices, false), (.maxSecurityTokens, false), (.invalidIDToken, false),
    ])
    func transient(_ error: BackendError, _ expected: Bool) {
        #expect(error.isTransient == expected)
    }

    @Test("Requests carry the contract's paths, methods, bodies and bearer token")
    func requests() async throws {
        let transport = OIDCCannedTransport { request in
            switch (request.method, request.url.path) {
            case (.post, "/v1/security-token"):
                return .json(200, ["security_token": "st-1", "expires_in": "3600", "registered": true])
            case (.get, "/v1/registration"):
                return .json(200, ["registered": true, "profile": [
                    "sub": "s-1", "email": "a@example.com", "name": "A", "registration_type": "PASSWORDLESS"]])
            case (.put, "/v1/profile"): return .json(200, [:])
            case (.delete, "/v1/installation"): return HTTPResponse(status: 204)
            default: return HTTPResponse(status: 404)
            }
        }
        let backend = HTTPRegistrationBackend(baseURL: Self.base, transport: transport)
        let grant = try await backend.securityToken(idToken: "the-id-token", installation: Self.installation)
        #expect(grant == SecurityTokenGrant(securityToken: "st-1", expiresIn: 3600, registered: true))
        #expect(!grant.description.contains("st-1"))
        let status = try await backend.registration(securityToken: "st-1")
        #expect(status == RegistrationStatus(registered: true, profile: BackendProfile(
            subject: "s-1", email: "a@example.com", name: "A", registrationType: .passwordless)))
        let profile = Profile(subject: "s-1", issuer: "https://idp.test", email: "a@example.com", name: "Ada")
        try await backend.updateProfile(profile, registrationType: .social, securityToken: "st-1")
        try await backend.deleteInstallation(securityToken: "st-1")

        let sent = transport.requests
        try #require(sent.count == 4)
        #expect(sent[0].url.absoluteString == "https://api.test/v1/security-token")
        #expect(sent[0].header("authorization") == nil)
        #expect(try JSONValue.parse(try #require(sent[0].body)) == [
            "id_token": "the-id-token", "installation_id": "inst-1", "platform": "linux", "form_factor": "80x24",
        ])
        for request in sent.dropFirst() {
            #expect(request.header("authorization") == "Bearer st-1")
        }
        #expect(try JSONValue.parse(try #require(sent[2].body)) == [
            "sub": "s-1", "email": "a@example.com", "name": "Ada", "registration_type": "SOCIAL",
        ])
    }

    @Test("An unregistered user has no profile")
    func unregistered() async throws {
        let backend = HTTPRegistrationBackend(baseURL: Self.base, transport: OIDCCannedTransport { _ in
            .json(200, ["registered": false, "profile": nil])
        })
        #expect(try await backend.registration(securityToken: "st") == RegistrationStatus(registered: false, profile: nil))
    }

    @Test("A transport failure is a transient transport error")
    func transportFailure() async {
        let backend = HTTPRegistrationBackend(baseURL: Self.base, transport: OIDCCannedTransport { _ throws(TransportError) in
            throw .offline
        })
        await #expect(throws: BackendError.transport(.offline)) { try await backend.registration(securityToken: "st") }
    }
}
