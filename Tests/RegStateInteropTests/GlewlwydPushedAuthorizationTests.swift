import Foundation
import Testing
@testable import RegState
import RegStateTestSupport

extension InteropTests {
    /// Pushed authorization requests (RFC 9126) against Glewlwyd 2.7.5 (`GLW_PAR`, `GLW_PAR_TTL` of the kit): the
    /// parameters go to `/par`, the browser gets `client_id` and `request_uri`, with and without DPoP, required by the
    /// provider or by the client.
    @Suite("PAR against Glewlwyd", .provider(.glewlwyd))
    struct GlewlwydPAR {
        /// The query names of a pushed authorization URL.
        static let pushedNames: Set<String> = ["client_id", "request_uri"]

        static func names(_ url: URL) -> Set<String> { Set(FormEncodingProbe.query(of: url).keys) }

        @Test("glewlwyd GLW_PAR=required: the library pushes (URL carries client_id and request_uri only), Active H; the same URL again is refused by Glewlwyd")
        func providerRequires() async throws {
            try await withPeer(.glewlwyd, PeerKnobs(pushedAuthorization: "required")) { peer in
                let device = InteropDevice(peer: peer)
                let service = device.launch()
                #expect(await service.start() == .registrationRequired)
                let url = try await service.beginSocialRegistration()
                #expect(Self.names(url) == Self.pushedNames)
                #expect(FormEncodingProbe.query(of: url)["request_uri"]?.hasPrefix("urn:ietf:params:oauth:request_uri:") == true)
                let callback = try await peer.login(url)
                try await service.completeSocialRegistration(callback: callback)
                #expect(try await service.confirmRegistration().activation == .registered)
                // Single use: once its code was issued the request_uri is dead at Glewlwyd.
                await #expect(throws: InteropError.self) { _ = try await peer.login(url) }
            }
        }

        @Test("glewlwyd GLW_PAR=required, the library's PAR switched off: F pushed_authorization_unavailable before any authorization request")
        func providerRequiresClientOff() async throws {
            try await withPeer(.glewlwyd, PeerKnobs(pushedAuthorization: "required")) { peer in
                let device = InteropDevice(peer: peer, pushedAuthorization: .off)
                let service = device.launch()
                await service.start()
                await #expect(throws: RegStateServiceError.self) { _ = try await service.beginSocialRegistration() }
                guard case .failed(.registration(.pushedAuthorizationUnavailable)) = await service.state else {
                    Issue.record("expected F pushed_authorization_unavailable, got \(await service.state)")
                    return
                }
                #expect(device.transport.requests.count == 1, "discovery only")
            }
        }

        @Test("glewlwyd PAR required by the client: pushes where offered (Active H); GLW_PAR=off is F pushed_authorization_unavailable, never a plain URL",
              arguments: ["allowed", "off"])
        func clientRequires(par: String) async throws {
            try await withPeer(.glewlwyd, PeerKnobs(pushedAuthorization: par)) { peer in
                let device = InteropDevice(peer: peer, pushedAuthorization: .required)
                if par == "allowed" {
                    _ = try await device.register()
                    return
                }
                let service = device.launch()
                await service.start()
                await #expect(throws: RegStateServiceError.self) { _ = try await service.beginSocialRegistration() }
                guard case .failed(.registration(.pushedAuthorizationUnavailable)) = await service.state else {
                    Issue.record("expected F pushed_authorization_unavailable, got \(await service.state)")
                    return
                }
                #expect(await service.pendingSocialLogin() == nil)
            }
        }

        struct DPoPCase: Sendable, CustomTestStringConvertible {
            var clientID: String
            var mode: DPoPMode
            var par: String
            var testDescription: String { "\(clientID), DPoP \(mode.rawValue), GLW_PAR=\(par)" }
        }

        @Test("glewlwyd PAR with DPoP: the push carries the proof, the code and the tokens are bound to the key (token type DPoP)",
              arguments: [
                  DPoPCase(clientID: "swift-test-dpop", mode: .required, par: "required"),
                  DPoPCase(clientID: "swift-test-dpop", mode: .required, par: "allowed"),
                  DPoPCase(clientID: "swift-test-public", mode: .whenOffered, par: "required"),
              ])
        func withDPoP(_ run: DPoPCase) async throws {
            try await withPeer(.glewlwyd, PeerKnobs(pushedAuthorization: run.par)) { peer in
                let device = InteropDevice(peer: peer, dpop: run.mode, clientID: run.clientID)
                let service = device.launch()
                await service.start()
                let url = try await service.beginSocialRegistration()
                #expect(Self.names(url) == Self.pushedNames)
                try await service.completeSocialRegistration(callback: try await peer.login(url))
                try await service.confirmRegistration()
                let key = try #require(try DPoPKeyStore(store: device.store, crypto: SystemCrypto()).load())
                #expect(await service.tokenBinding() == .dpop(thumbprint: key.thumbprint))
                #expect(await service.renewSession().session?.activation == .renewed)
            }
        }

        @Test("glewlwyd PAR, GLW_PAR_TTL=5: a request_uri past expires_in is dead at Glewlwyd, and reopenSocialLogin pushes a new one that signs in (Active H)")
        func expiredRequestURI() async throws {
            try await withPeer(.glewlwyd, PeerKnobs(pushedAuthorization: "required", pushedRequestLifetime: 5)) { peer in
                let device = InteropDevice(peer: peer)
                let service = device.launch()
                await service.start()
                let first = try await service.beginSocialRegistration()
                #expect(try await service.reopenSocialLogin() == first)
                try await Task.sleep(for: .seconds(6))
                device.clock.advance(by: 6)
                #expect(await service.pendingSocialLogin()?.isAuthorizationURLExpired == true)
                await #expect(throws: InteropError.self) { _ = try await peer.login(first) }
                let second = try await service.reopenSocialLogin()
                #expect(second != first)
                try await service.completeSocialRegistration(callback: try await peer.login(second))
                #expect(try await service.confirmRegistration().activation == .registered)
            }
        }

        @Test("glewlwyd PAR: a pushed login survives a relaunch; the relaunched service takes its redirect (Active H)")
        func relaunch() async throws {
            try await withPeer(.glewlwyd, PeerKnobs(pushedAuthorization: "required")) { peer in
                let device = InteropDevice(peer: peer)
                var first: RegStateService? = device.launch()
                await first?.start()
                let url = try #require(try await first?.beginSocialRegistration())
                first = nil
                let callback = try await peer.login(url)
                let relaunched = device.launch()
                #expect(await relaunched.start() == .registrationRequired)
                #expect(await relaunched.pendingSocialLogin()?.authorizationURL == url)
                try await relaunched.completeSocialRegistration(callback: callback)
                #expect(try await relaunched.confirmRegistration().activation == .registered)
            }
        }

        @Test("glewlwyd PAR refusal (an unregistered redirect URI): Glewlwyd's bare 403 is F pushed_authorization_refused, nothing pending")
        func refusedPush() async throws {
            try await withPeer(.glewlwyd) { peer in
                let device = InteropDevice(peer: peer, redirectURI: URL(string: "com.attacker.app:/callback"))
                let service = device.launch()
                await service.start()
                await #expect(throws: RegStateServiceError.self) { _ = try await service.beginSocialRegistration() }
                #expect(await service.state == .failed(.registration(.pushedAuthorizationRefused(
                    error: "HTTP 403 without an error body", description: nil))))
                #expect(await service.pendingSocialLogin() == nil)
            }
        }

        /// Glewlwyd's departure from RFC 9449 §8 (a server that wants a nonce answers `use_dpop_nonce` with a
        /// `DPoP-Nonce` header): its PAR endpoint refuses a proof without the client's nonce as `invalid_dpop_proof`
        /// and sends no nonce, so a client cannot learn one there. RegState does not guess (no retry without a nonce
        /// to use): the refusal is typed, nothing is pending. The same client registers with PAR off
        /// (``GlewlwydDPoP``'s `--nonce` case).
        @Test("glewlwyd --nonce with PAR: Glewlwyd's /par wants a DPoP nonce but never sends DPoP-Nonce (RFC 9449 §8), so a DPoP client's push is refused, typed: F pushed_authorization_refused(invalid_dpop_proof)")
        func nonceAtPushPinned() async throws {
            try await withPeer(.glewlwyd, PeerKnobs(dpopNonce: true)) { peer in
                let device = InteropDevice(peer: peer, dpop: .required, clientID: "swift-test-dpop")
                let service = device.launch()
                await service.start()
                await #expect(throws: RegStateServiceError.self) { _ = try await service.beginSocialRegistration() }
                guard case .failed(.registration(.pushedAuthorizationRefused(let error, _))) = await service.state else {
                    Issue.record("expected F pushed_authorization_refused, got \(await service.state)")
                    return
                }
                #expect(error == "invalid_dpop_proof")
                #expect(await service.pendingSocialLogin() == nil)
            }
        }
    }
}
