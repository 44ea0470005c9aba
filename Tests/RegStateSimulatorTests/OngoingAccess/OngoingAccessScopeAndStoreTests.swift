import Foundation
import RegState
import RegStateOngoingAccess
import RegStateTesting
import RegStateSimulator
import Testing

@Suite("Ongoing access: scope and the stored record")
struct OngoingAccessScopeAndStoreTests {
    static func day(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text + "T00:00:00Z") ?? Date(timeIntervalSince1970: 0)
    }

    @Test("A scope limits accounts and files; a file outside it cannot be fetched")
    func scopeFilters() async throws {
        let harness = try await OngoingAccessHarness()
        let service = await harness.service()
        let january = OngoingAccessScope(from: Self.day("2026-01-01"), to: Self.day("2026-01-31"))
        let result = try await service.authorizeOngoingAccess(scope: january, oAuthToken: nil)
        #expect(result.session.scope == january)
        #expect(try await service.accounts().map(\.id) == ["acc-music"])
        #expect(try await service.files().map(\.id) == ["file-1"])
        await #expect(throws: OngoingAccessError.providerRefused(status: 404, error: "not_found")) {
            try await service.file(id: "file-3")
        }
        // A restore may narrow the consented scope, never widen it.
        let restored = await harness.service()
        let wider = OngoingAccessScope(from: Self.day("2025-12-01"), to: Self.day("2026-12-31"))
        let narrowed = try await restored.authorizeOngoingAccess(scope: wider, oAuthToken: result.oAuthToken)
        #expect(narrowed.session.scope == january)
        #expect(try await restored.files().map(\.id) == ["file-1"])
    }

    @Test("The record is its own key; version 1 written as below is read back; another version is refused")
    func recordFormat() throws {
        let store = InMemorySecureStore()
        let tokens = OngoingAccessTokenStore(store: store)
        let version1 = #"{"scope":{"from":1767225600},"token":{"access_token":"a-1","access_token_expires_at":1782867600,"#
            + #""refresh_token":"r-1","refresh_token_expires_at":1785456000,"token_type":"Bearer"},"version":1}"#
        try store.set(Data(version1.utf8), forKey: "ongoing-access")
        let record = try #require(try tokens.load())
        #expect(record.token == OAuthToken(accessToken: "a-1", accessTokenExpiresAt: Date(timeIntervalSince1970: 1_782_867_600),
                                           refreshToken: "r-1", refreshTokenExpiresAt: Date(timeIntervalSince1970: 1_785_456_000)))
        #expect(record.scope == OngoingAccessScope(from: Date(timeIntervalSince1970: 1_767_225_600)))
        try tokens.save(record)
        #expect(try tokens.load() == record)
        #expect(try store.keys() == ["ongoing-access"])
        #expect(!"\(record.token)".contains("a-1") && !String(reflecting: record.token).contains("r-1"))

        try store.set(Data(version1.replacingOccurrences(of: #""version":1"#, with: #""version":2"#).utf8), forKey: "ongoing-access")
        #expect(throws: StoreError.unreadable(key: "ongoing-access", reason: "format version 2 is not known")) { try tokens.load() }
    }

    @Test("A failed write of a refreshed token is a typed error and keeps the previous record")
    func failedWrite() async throws {
        let harness = try await OngoingAccessHarness()
        let token = try await harness.consentOnce()
        let before = try harness.storedRecord()
        harness.clock.advance(by: 3600)
        harness.store.failNextWrite(.writeFailed(key: "ongoing-access", reason: "disk full"))
        await #expect(throws: OngoingAccessError.store(.writeFailed(key: "ongoing-access", reason: "disk full"))) {
            try await harness.service().authorizeOngoingAccess(oAuthToken: token)
        }
        #expect(try harness.storedRecord() == before)
        #expect(try await harness.service().authorizeOngoingAccess(oAuthToken: token).refreshed)
    }

    @Test("The provider's world survives a restart: a token from before still restores")
    func providerPersistence() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ongoing-world-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await OngoingAccessHarness(persistence: directory)
        let token = try await first.consentOnce()
        let world = try String(contentsOf: directory.appendingPathComponent("ongoing-access-world.json"), encoding: .utf8)
        #expect(!world.contains(token.accessToken) && !world.contains(token.refreshToken))
        let second = try await OngoingAccessHarness(persistence: directory)
        #expect(await second.provider.keyID == first.provider.keyID)
        let restored = try await second.service().authorizeOngoingAccess(oAuthToken: token)
        #expect(restored.origin == .restored)
    }
}
