import Foundation
import RegState
import RegStateOngoingAccess
import RegStateSimulator
import RegStateTesting

/// Signs `header\npayload` (raw bytes, base64url-encoded as they are) with the fixture key, so that the checks after
/// the signature see arbitrary JSON; `nil` when the input has no newline-free header or the key is missing.
enum FuzzSigned {
    static func compact(_ data: Data.SubSequence, algorithm: SignatureAlgorithm) -> String? {
        guard let privateKey = FuzzFixture.privateKey else { return nil }
        let parts = data.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false)
        let header = parts.first.map { Data($0) } ?? Data()
        let payload = parts.count > 1 ? Data(parts[1]) : Data()
        let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        guard let signature = try? FuzzFixture.crypto.sign(message: Data(input.utf8), privateKey: privateKey,
                                                          algorithm: algorithm) else { return nil }
        return input + "." + Base64URL.encode(signature)
    }
}

/// DPoP proofs and nonces as the simulator's verifier sees them. First byte: bit 0 — the rest is a compact proof as it
/// is (even) or `header\npayload` signed with a fresh P-256 key whose public JWK is put into the header (odd), so the
/// claim checks after the signature see arbitrary JSON; bit 1 — an access token is presented; bit 2 — a nonce is
/// required. The same bytes are also offered as a `DPoP-Nonce` header to the client's nonce cache.
enum FuzzDPoP {
    static let verifier = DPoPProofVerifier(crypto: FuzzFixture.crypto)
    static let privateKey: P256PrivateKey? = try? FuzzFixture.crypto.generateP256PrivateKey()
    static let url = URL(string: FuzzFixture.issuer + "/token") ?? URL(fileURLWithPath: "/")

    static func run(_ data: Data) {
        guard let mode = data.first else { return }
        let rest = data.dropFirst()
        let cache = DPoPNonceCache()
        _ = try? cache.remember(FuzzFixture.text(rest), for: url)
        _ = cache.nonce(for: url)
        _ = try? DPoPNonceCache.validated(FuzzFixture.text(rest))
        var proof = FuzzFixture.text(rest)
        if mode & 1 == 1 {
            guard let privateKey, let jwk = try? DPoPKey(privateKey: privateKey, crypto: FuzzFixture.crypto).jwk else { return }
            let parts = rest.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false)
            let header = parts.first.map { Data($0) } ?? Data()
            let payload = parts.count > 1 ? Data(parts[1]) : Data()
            // The key's public JWK goes into the fuzzed header when it is an object (else the header stays as it is).
            var headerBytes = header
            if var members = (try? JSONValue.parse(header))?.objectValue {
                members["jwk"] = .object(["kty": .string("EC"), "crv": .string("P-256"),
                                          "x": .string(jwk.x ?? ""), "y": .string(jwk.y ?? "")])
                headerBytes = JSONValue.object(members).serialized()
            }
            let input = Base64URL.encode(headerBytes) + "." + Base64URL.encode(payload)
            guard let signature = try? FuzzFixture.crypto.sign(message: Data(input.utf8), privateKey: privateKey) else { return }
            proof = input + "." + Base64URL.encode(signature)
        }
        _ = try? verifier.verify(proof, method: "POST", url: url, accessToken: mode & 2 == 0 ? nil : "fuzz-token",
                                 expectedNonce: mode & 4 == 0 ? nil : "fuzz-nonce", now: FuzzFixture.now)
    }
}

/// Ongoing-access JWS answers: the compact parser and the verifier (pinned keys, PS512 and RS256). First byte even:
/// the rest is a compact JWS as it is; odd: `header\npayload` signed with the fixture key (bit 1: PS512, else RS256).
enum FuzzJWS {
    static let verifier = JWSVerifier(keys: FuzzFixture.keySet, crypto: FuzzFixture.crypto)

    static func run(_ data: Data) {
        guard let mode = data.first else { return }
        let rest = data.dropFirst()
        let compact = mode & 1 == 0 ? FuzzFixture.text(rest)
            : FuzzSigned.compact(rest, algorithm: mode & 2 == 0 ? .rs256 : .ps512)
        guard let compact else { return }
        if let jws = try? JSONWebToken(compact: compact) {
            _ = jws.algorithm
            _ = jws.keyID
            _ = jws.header["jku"]
            _ = String(describing: jws)
        }
        if let jws = try? verifier.verify(compact) { _ = jws.claims.count }
    }
}

/// The pending-login record in the secure store (issue 20), read by a service as a relaunch would: its summary, the
/// resumption a redirect triggers, and its removal.
enum FuzzPendingLogin {
    static func run(_ data: Data) {
        let store = InMemorySecureStore(["pending_login": data])
        let service = RegStateService(
            configuration: RegStateConfiguration(oidc: FuzzFixture.oidc),
            dependencies: RegStateDependencies(store: store, journal: InMemoryJournal(),
                                               transport: CannedTransport { _ in HTTPResponse(status: 503) },
                                               clock: ManualClock(start: FuzzFixture.now, waitsOnWallTime: true),
                                               platform: FixedPlatformService.web))
        blocking {
            _ = await service.start()
            if let pending = await service.pendingSocialLogin() { _ = String(describing: pending) }
            let callback = URL(string: "com.example.app:/callback?code=c&state=s") ?? URL(fileURLWithPath: "/")
            _ = try? await service.completeSocialRegistration(callback: callback)
            await service.discardPendingSocialLogin()
        }
    }
}

/// The ID token a host app pushes in host mode (seed 000): validated against the fixture keys, then exchanged at a
/// backend that answers 503. First byte even: the rest is the compact token as it is; odd: `header\npayload` signed
/// with the fixture key (RS256), so issuer, audience, times and nonce checks see arbitrary JSON.
enum FuzzHostToken {
    static func run(_ data: Data) {
        guard let mode = data.first else { return }
        let rest = data.dropFirst()
        guard let token = mode & 1 == 0 ? FuzzFixture.text(rest) : FuzzSigned.compact(rest, algorithm: .rs256) else { return }
        let transport = CannedTransport { request in
            let path = request.url.path
            if path.hasSuffix("openid-configuration") { return HTTPResponse(status: 200, body: FuzzFixture.discovery) }
            if path.hasSuffix("jwks"), let keys = try? JSONEncoder().encode(FuzzFixture.keySet) {
                return HTTPResponse(status: 200, body: keys)
            }
            return HTTPResponse(status: 503)
        }
        var configuration = RegStateConfiguration(oidc: FuzzFixture.oidc, backendURL: URL(string: "https://api.fuzz.test"))
        configuration.sessionSource = .host
        let service = RegStateService(
            configuration: configuration,
            dependencies: RegStateDependencies(store: InMemorySecureStore(), journal: InMemoryJournal(),
                                               transport: transport, clock: ManualClock(start: FuzzFixture.now, waitsOnWallTime: true),
                                               platform: FixedPlatformService.web))
        blocking {
            _ = await service.start()
            _ = try? await service.updateToken(idToken: token)
        }
    }
}

/// Discovery documents with advertised algorithms and endpoints: decoded, the ID-token and DPoP algorithms chosen,
/// and fetched through the client (which checks the issuer and each endpoint's scheme and host).
enum FuzzDiscovery {
    static func run(_ data: Data) {
        if let metadata = try? ProviderMetadata.read(discovery: data) {
            _ = try? metadata.acceptedIDTokenAlgorithms()
            _ = metadata.offersDPoP
            _ = metadata.requiresCallbackIssuer
        }
        let client = OIDCClient(configuration: FuzzFixture.oidc,
                                transport: CannedTransport { _ in HTTPResponse(status: 200, body: data) },
                                clock: ManualClock(start: FuzzFixture.now, waitsOnWallTime: true))
        blocking {
            if let metadata = try? await client.metadata() { _ = try? metadata.acceptedIDTokenAlgorithms() }
        }
    }
}
