import Foundation
import RegState
import Testing

extension InteropTests {
    /// Pushed authorization requests (RFC 9126) against idpyoidc 5.0.0 with its PAR endpoint on (`IDPY_PAR=on`, one
    /// provider for the suite). idpyoidc takes the push, but its authorization endpoint validates the query as a
    /// whole OpenID request (`response_type`, `scope` with `openid`, `redirect_uri`) before it looks the `request_uri`
    /// up, so the RFC 9126 §4 request (`client_id` and `request_uri` only) is refused. RegState sends the RFC's form
    /// and no copies of the pushed parameters beside it: the refusal is pinned.
    @Suite("PAR against idpyoidc", .provider(.idpyoidc), .peers([.idpyoidc], .idpyoidcPAR))
    struct IdpyoidcPAR {
        static let knobs = PeerKnobs.idpyoidcPAR

        @Test("idpyoidc IDPY_PAR=on: the library pushes (answered 200 where RFC 9126 says 201, a urn:uuid request_uri; the URL carries client_id and request_uri only); idpyoidc's authorization endpoint then refuses that RFC 9126 URL in the browser (400 \"Missing required attribute 'response_type'\"); the login stays pending")
        func pushedURLRefused() async throws {
            try await withPeer(.idpyoidc, Self.knobs) { peer in
                let device = InteropDevice(peer: peer)
                let service = device.launch()
                #expect(await service.start() == .registrationRequired)
                let url = try await service.beginSocialRegistration()
                let query = FormEncodingProbe.query(of: url)
                #expect(Set(query.keys) == ["client_id", "request_uri"])
                #expect(query["request_uri"]?.hasPrefix("urn:uuid:") == true)
                do {
                    _ = try await peer.login(url)
                    Issue.record("idpyoidc took the RFC 9126 URL: pin the working flow instead")
                } catch InteropError.scriptFailed(let answer) {
                    #expect(answer.contains("400") && answer.contains("Missing required attribute 'response_type'"),
                            "\(answer)")
                }
                #expect(await service.pendingSocialLogin() != nil)
            }
        }

        @Test("idpyoidc PAR refusal (an unregistered redirect URI): 400 invalid_request is F pushed_authorization_refused with idpyoidc's code and description, nothing pending")
        func refusedPush() async throws {
            try await withPeer(.idpyoidc, Self.knobs) { peer in
                let device = InteropDevice(peer: peer, redirectURI: URL(string: "com.attacker.app:/callback"))
                let service = device.launch()
                await service.start()
                await #expect(throws: RegStateServiceError.self) { _ = try await service.beginSocialRegistration() }
                guard case .failed(.registration(.pushedAuthorizationRefused(let error, let description))) = await service.state
                else {
                    Issue.record("expected F pushed_authorization_refused, got \(await service.state)")
                    return
                }
                #expect(error == "invalid_request")
                #expect(description?.contains("registered") == true, "\(description ?? "no description")")
                #expect(await service.pendingSocialLogin() == nil)
            }
        }

        @Test("idpyoidc offering PAR, the library's PAR off: a plain authorization URL (PKCE, no request_uri) signs in, Active H")
        func libraryOff() async throws {
            try await withPeer(.idpyoidc, Self.knobs) { peer in
                let device = InteropDevice(peer: peer, pushedAuthorization: .off)
                let service = device.launch()
                await service.start()
                let url = try await service.beginSocialRegistration()
                #expect(FormEncodingProbe.query(of: url)["request_uri"] == nil)
                #expect(FormEncodingProbe.query(of: url)["code_challenge_method"] == "S256")
                try await service.completeSocialRegistration(callback: try await peer.login(url))
                #expect(try await service.confirmRegistration().activation == .registered)
            }
        }
    }
}
