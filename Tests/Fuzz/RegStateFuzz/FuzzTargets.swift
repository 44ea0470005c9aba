import Foundation
import RegState
import RegStateOngoingAccess
import RegStateTesting

/// The compact JWT parser and the ID token validator.
///
/// First byte even: the rest is a compact token, parsed and validated as it is. Odd: the rest is `header\npayload`,
/// raw bytes that are base64url-encoded and signed with the fixture key, so the checks after the signature (issuer,
/// audience, times, nonce, subject) and the JSON reader see arbitrary JSON.
enum FuzzJWT {
    static func run(_ data: Data) {
        guard let mode = data.first else { return }
        let rest = data.dropFirst()
        let compact: String
        if mode & 1 == 0 {
            compact = FuzzFixture.text(rest)
        } else {
            guard let privateKey = FuzzFixture.privateKey else { return }
            let parts = rest.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false)
            let header = parts.first.map { Data($0) } ?? Data()
            let payload = parts.count > 1 ? Data(parts[1]) : Data()
            let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
            let algorithm: SignatureAlgorithm = mode & 2 == 0 ? .rs256 : .ps256
            guard let signature = try? FuzzFixture.crypto.sign(message: Data(input.utf8), privateKey: privateKey,
                                                              algorithm: algorithm) else { return }
            compact = input + "." + Base64URL.encode(signature)
        }
        if let token = try? JSONWebToken(compact: compact) {
            _ = token.subject
            _ = token.nonce
            _ = token.signatureAlgorithm
            _ = String(describing: token)
        }
        let validator = IDTokenValidator(issuer: FuzzFixture.issuer, clientID: FuzzFixture.clientID,
                                         maximumAge: 86_400, crypto: FuzzFixture.crypto)
        if let token = try? validator.validate(compact, keySet: FuzzFixture.keySet, expectedNonce: nil, now: FuzzFixture.now) {
            _ = try? ProfileService().profile(fromClaims: token.claims)
        }
        _ = try? validator.validate(compact, keySet: FuzzFixture.keySet, expectedNonce: "n", now: FuzzFixture.now)
    }
}

/// JWKS documents: decoding, key lookup and building each RSA key.
enum FuzzJWKS {
    static func run(_ data: Data) {
        guard let keySet = try? JSONWebKeySet.parse(data) else { return }
        for key in keySet.keys {
            _ = key.fits(.rs256)
            _ = try? key.rsaPublicKey()
            _ = keySet.key(withID: key.keyID)
        }
        _ = keySet.key(withID: nil)
        _ = try? JSONEncoder().encode(keySet)
    }
}

/// Token, discovery and userinfo answers. First byte: which answer (and, for a token answer, which status); the
/// rest is the body.
enum FuzzResponses {
    static func run(_ data: Data) {
        guard let mode = data.first else { return }
        let body = Data(data.dropFirst())
        switch mode % 3 {
        case 0:
            let status = [200, 400, 401, 429, 503][Int(mode / 3) % 5]
            if let tokens = try? TokenResponse.parse(HTTPResponse(status: status, body: body)) {
                _ = String(describing: tokens)
                _ = String(reflecting: tokens)
                var sink = ""
                dump(tokens, to: &sink)
                _ = tokens.expiresAt(from: FuzzFixture.now)
            }
        case 1:
            let client = OIDCClient(configuration: FuzzFixture.oidc,
                                    transport: CannedTransport { _ in HTTPResponse(status: 200, body: body) },
                                    clock: ManualClock(start: FuzzFixture.now, waitsOnWallTime: true))
            blocking {
                _ = try? await client.metadata()
                _ = try? await client.userInfo(accessToken: "fuzz", subject: "alice")
            }
        default:
            let transport = CannedTransport { request in
                request.url.path.hasSuffix("openid-configuration")
                    ? HTTPResponse(status: 200, body: FuzzFixture.discovery)
                    : HTTPResponse(status: 200, body: body)
            }
            let client = OIDCClient(configuration: FuzzFixture.oidc, transport: transport,
                                    clock: ManualClock(start: FuzzFixture.now, waitsOnWallTime: true))
            blocking {
                _ = try? await client.userInfo(accessToken: "fuzz", subject: "alice")
                _ = try? await client.refresh(refreshToken: "fuzz")
                _ = try? await client.validateIDToken(FuzzFixture.text(body), expectedNonce: nil)
            }
        }
    }
}

/// Authorization callback URLs, against a private-use and a loopback redirect, with and without RFC 9207 `iss`; and
/// the same URLs as requests judged by a token policy (URL normalisation).
enum FuzzCallback {
    static let redirects = ["com.example.app:/callback", "http://127.0.0.1:8765/callback"].compactMap(URL.init(string:))
    static let policy = TokenPolicy(validatingURLs: ["https://api.fuzz.test/v1", "http://[::1]:8080/a/b/"]
        .compactMap(URL.init(string:)))

    static func run(_ data: Data) {
        guard let url = URL(string: FuzzFixture.text(data)) else { return }
        _ = policy.matches(url)
        _ = TokenPolicy(validatingURLs: [url]).matches(url)
        for redirect in redirects {
            for required in [false, true] {
                _ = try? AuthorizationCallback.code(from: url, expectedRedirect: redirect, expectedState: "state",
                                                    issuer: FuzzFixture.issuer, issuerRequired: required)
            }
        }
    }
}

/// Journal bytes. First byte even: the rest is the journal file as it is on disk. Odd: each line of the rest is
/// framed (checksummed) first, so the entry decoder and the replay see every line. A service then replays it and
/// launches on a non-native platform (no network), appending to whatever sequence the journal ended at.
enum FuzzJournal {
    static func run(_ data: Data) {
        guard let mode = data.first else { return }
        let rest = Data(data.dropFirst())
        let journal = InMemoryJournal()
        if mode & 1 == 0 {
            journal.appendRawBytes(rest)
        } else {
            for line in rest.split(separator: UInt8(ascii: "\n")) { try? journal.append(Data(line)) }
        }
        if let contents = try? journal.read() {
            let entries = contents.lines.compactMap { try? JournalEntry.decode($0) }
            _ = JournalEntry.fold(entries)
        }
        let service = RegStateService(
            configuration: RegStateConfiguration(oidc: FuzzFixture.oidc),
            dependencies: RegStateDependencies(store: InMemorySecureStore(), journal: journal,
                                               transport: CannedTransport { _ in HTTPResponse(status: 503) },
                                               clock: ManualClock(start: FuzzFixture.now, waitsOnWallTime: true),
                                               platform: FixedPlatformService.web))
        blocking {
            _ = await service.start()
            _ = try? await service.journalEntries()
        }
    }
}

/// The stored credentials record, read by the token service as a launch would.
enum FuzzStore {
    static func run(_ data: Data) {
        let store = InMemorySecureStore([TokenService.credentialsKey: data])
        let tokens = TokenService(store: store, clock: ManualClock(start: FuzzFixture.now, waitsOnWallTime: true))
        blocking {
            _ = await tokens.inspect().status
            _ = await tokens.storedSession()
            if let access = await tokens.snapshot() { _ = await tokens.isUsable(access.expiresAt) }
            _ = await tokens.snapshot()?.refreshToken
            _ = await tokens.snapshot()?.idToken
            _ = await tokens.snapshot()?.securityToken
            // Bound to an issuer and client: the binding check (and the previous format's ID-token claims) too.
            let bound = TokenService(store: store, clock: ManualClock(start: FuzzFixture.now, waitsOnWallTime: true),
                                     binding: CredentialBinding(FuzzFixture.oidc))
            _ = await bound.inspect().status
            _ = await bound.snapshot()
        }
    }
}
