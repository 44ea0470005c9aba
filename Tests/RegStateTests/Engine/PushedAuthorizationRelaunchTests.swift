import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

@Suite("Engine: a pushed login survives a relaunch; records written before PAR still read")
struct PushedAuthorizationRelaunchTests {
    @Test("Given a pushed login and the app killed, when a fresh service gets the redirect, then it registers (H)")
    func pushedLoginSurvivesRelaunch() async throws {
        let device = try FileStoreDevice { $0.pushedAuthorization = .required; $0.pushedRequestLifetime = 90 }
        defer { device.remove() }
        var first: RegStateService? = try device.launch()
        await first?.start()
        let url = try #require(try await first?.beginSocialRegistration())
        first = nil
        let record = try #require(try device.record())
        #expect(record.request.url == url)
        #expect(record.request.requestURIExpiresAt == record.createdAt.addingTimeInterval(90))
        let callback = try await device.simulator.authorize(url, as: "alice@example.com")
        let relaunched = try device.launch()
        #expect(await relaunched.start() == .registrationRequired)
        let pending = try #require(await relaunched.pendingSocialLogin())
        #expect(pending.authorizationURLExpiresAt == record.request.requestURIExpiresAt)
        try await relaunched.completeSocialRegistration(callback: callback)
        #expect(try await relaunched.confirmRegistration().activation == .registered)
    }

    /// A pending-login record exactly as the main branch before PAR wrote it (sorted keys, seconds since 1970).
    static func recordBeforePAR(url: URL, issuedAt: Date, issuer: String, clientID: String) -> Data {
        let text = """
        {"clientID":"\(clientID)","issuer":"\(issuer)","request":{"codeVerifier":"old-verifier-0123456789012345678901234567890123",\
        "issuedAt":\(issuedAt.timeIntervalSince1970),"nonce":"old-nonce","redirectURI":"com.example.app:\\/callback",\
        "state":"old-state","url":"\(url.absoluteString.replacingOccurrences(of: "/", with: "\\/"))"},"version":1}
        """
        return Data(text.utf8)
    }

    @Test("A record written before PAR (no requestURIExpiresAt) reads as a plain login: reported, reopenable, not expired")
    func recordBeforePARReads() async throws {
        let device = try FileStoreDevice()
        defer { device.remove() }
        let service = try device.launch()
        await service.start()
        let url = try await service.beginSocialRegistration()            // a plain login: the same format as before
        let written = try #require(FileManager.default.contents(atPath: device.recordURL.path))
        #expect(!String(decoding: written, as: UTF8.self).contains("requestURIExpiresAt"))
        let issuedAt = device.clock.now()
        let old = Self.recordBeforePAR(url: url, issuedAt: issuedAt, issuer: device.world.world.issuerIdentifier,
                                       clientID: device.world.world.clientID)
        try old.write(to: device.recordURL)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let decoded = try decoder.decode(PendingLogin.self, from: old)
        #expect(decoded.request.requestURIExpiresAt == nil)
        #expect(decoded.request.state == "old-state")
        let relaunched = try device.launch()
        await relaunched.start()
        let pending = try #require(await relaunched.pendingSocialLogin())
        #expect(pending.authorizationURL == url)
        #expect(pending.authorizationURLExpiresAt == nil)
        #expect(!pending.isAuthorizationURLExpired)
        #expect(try await relaunched.reopenSocialLogin() == url)
    }
}
