import Foundation
import RegState
import RegStateOngoingAccess

/// Everything an ``OngoingAccessProvider`` remembers, saved whole. Tokens, codes and session keys are keyed by their
/// SHA-256, so the file never holds a usable credential.
struct OngoingAccessWorld: Codable, Equatable {
    static let currentVersion = 1
    var version = OngoingAccessWorld.currentVersion
    /// The provider's signing key, PKCS #1 DER, base64.
    var signingKeyDER: String
    var keyID: String
    var preAuthorizations: [String: PreAuthorizationRecord] = [:]
    var codes: [String: ConsentCodeRecord] = [:]
    var grants: [String: GrantRecord] = [:]
    var accessTokens: [String: AccessRecord] = [:]
    /// Refresh tokens by hash, naming their grant. A refresh adds one and keeps the old (same grant, same expiry).
    var refreshTokens: [String: String] = [:]
    var sessions: [String: SessionRecord] = [:]
    /// Request nonces seen, with when they may be forgotten (a nonce is accepted once).
    var seenNonces: [String: Date] = [:]
    var counters = OngoingAccessCounters()
    var nextSerial = 1
}

struct PreAuthorizationRecord: Codable, Equatable {
    var redirectURI: String
    var state: String
    var codeChallenge: String
    var scope: OngoingAccessScope
    var expiresAt: Date
    var used = false
}

struct ConsentCodeRecord: Codable, Equatable {
    var redirectURI: String
    var codeChallenge: String
    var scope: OngoingAccessScope
    var expiresAt: Date
    var redeemed = false
}

struct GrantRecord: Codable, Equatable {
    var scope: OngoingAccessScope
    /// Fixed at consent: refreshing never moves it.
    var refreshExpiresAt: Date
    var revoked = false
}

struct AccessRecord: Codable, Equatable {
    var grantID: String
    var expiresAt: Date
}

struct SessionRecord: Codable, Equatable {
    var grantID: String
    var scope: OngoingAccessScope
    var expiresAt: Date
}

/// What tests inspect.
struct OngoingAccessCounters: Codable, Equatable {
    var consents = 0
    var tokenExchanges = 0
    var refreshes = 0
    var sessions = 0
    var keySetFetches = 0
}

/// The world as one JSON file, written atomically.
struct OngoingAccessWorldFile: Sendable {
    static let fileName = "ongoing-access-world.json"
    let url: URL

    init(directory: URL) throws(OngoingAccessProviderError) {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .world("cannot create \(directory.path): \(String(describing: error))")
        }
        url = directory.appendingPathComponent(Self.fileName)
    }

    func load() throws(OngoingAccessProviderError) -> OngoingAccessWorld? {
        let data: Data?
        do {
            data = try AtomicFile.contents(of: url.path)
        } catch {
            throw .world("cannot read \(url.path): \(error.reason)")
        }
        guard let data else { return nil }
        let decoder = RecordedTime.decoder()
        guard let world = try? decoder.decode(OngoingAccessWorld.self, from: data),
              world.version == OngoingAccessWorld.currentVersion
        else { throw .world("\(url.path) is not an ongoing-access world of version \(OngoingAccessWorld.currentVersion)") }
        return world
    }

    func save(_ world: OngoingAccessWorld) throws(OngoingAccessProviderError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(world) else { throw .world("cannot encode the world") }
        do {
            try AtomicFile.write(data, to: url.path, mode: 0o600)
        } catch {
            throw .world("cannot write \(url.path): \(error.reason)")
        }
    }
}
