import Foundation
import RegStateSimulator
import RegStateTesting
import Testing
@testable import RegState
@testable import RegStateOngoingAccess

/// Issue 27: every number read from disk is range-checked where it is read. Written as a rule: each record is made
/// by its real writer with every optional member present, then every numeric member in it (found by walking the
/// JSON, not listed) is replaced by each hostile value in turn; the reading is the record's typed "unreadable"
/// outcome, never a trap, and nothing else in the store or the journal is lost.
@Suite("Every number read from disk is range-checked")
struct RecordNumbersTests {
    /// Not a time in 1970...9999, not a lifetime, not a whole number an `Int` holds, not a sequence number.
    static let hostile: [Double] = [1e308, -1e308, 9.3e18, -9.3e18, 253_402_300_800.5, -0.5]
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    // MARK: The walk

    /// The path of every number in `value`.
    static func numberPaths(_ value: JSONValue, _ path: [String] = []) -> [[String]] {
        switch value {
        case .number: [path]
        case .object(let members): members.sorted { $0.key < $1.key }.flatMap { numberPaths($0.value, path + [$0.key]) }
        case .array(let items): items.enumerated().flatMap { numberPaths($0.element, path + [String($0.offset)]) }
        default: []
        }
    }

    /// `value` with the number at `path` replaced by `number`.
    static func replacing(_ value: JSONValue, at path: ArraySlice<String>, with number: Double) -> JSONValue {
        guard let head = path.first else { return .number(number) }
        switch value {
        case .object(var members):
            members[head] = members[head].map { replacing($0, at: path.dropFirst(), with: number) }
            return .object(members)
        case .array(var items):
            if let index = Int(head), items.indices.contains(index) {
                items[index] = replacing(items[index], at: path.dropFirst(), with: number)
            }
            return .array(items)
        default: return value
        }
    }

    /// Every hostile variant of `record`: each number path with each hostile value, as bytes.
    static func variants(of record: Data) throws -> [(path: String, data: Data)] {
        let value = try JSONValue.parse(record)
        let paths = numberPaths(value)
        return paths.flatMap { path in
            hostile.map { number in
                (path.joined(separator: "."), replacing(value, at: path[...], with: number).serialized())
            }
        }
    }

    // MARK: Records

    static func fullCredentials() async throws -> Data {
        var record = StoredCredentials(stage: .confirmed, accessToken: "at")
        record.registrationType = .social
        record.profile = TransitionTable.profile
        record.idToken = "id"
        record.refreshToken = "rt"
        record.expiresAt = now.addingTimeInterval(3600)
        record.issuedAt = now
        record.refreshExpiresAt = now.addingTimeInterval(86_400)
        record.securityToken = "st"
        record.securityTokenExpiresAt = now.addingTimeInterval(600)
        record.tokenType = "Bearer"
        record.renewalStartedAt = now
        record.issuer = "https://idp.example"
        record.clientID = "client"
        let store = InMemorySecureStore()
        try await TokenService(store: store, clock: ManualClock(start: now)).save(record)
        return try #require(try store.data(forKey: TokenService.credentialsKey))
    }

    @Test("the credentials record: any number out of range is a damaged record, set aside; nothing else is touched")
    func credentials() async throws {
        let variants = try Self.variants(of: try await Self.fullCredentials())
        // expires_at, issued_at, refresh_expires_at, security_token_expires_at, renewal_started_at.
        #expect(Set(variants.map(\.path)).count == 5)
        for variant in variants {
            let store = InMemorySecureStore([TokenService.credentialsKey: variant.data, "pending_login": Data("p".utf8),
                                             OngoingAccessTokenStore.recordKey: Data("o".utf8)])
            let status = await TokenService(store: store, clock: ManualClock(start: Self.now)).inspect().status
            guard case .corrupt = status else {
                Issue.record("\(variant.path): \(status)")
                continue
            }
            #expect(try store.data(forKey: TokenService.quarantineKey) == variant.data, "\(variant.path)")
            #expect(try store.data(forKey: "pending_login") == Data("p".utf8))
            #expect(try store.data(forKey: OngoingAccessTokenStore.recordKey) == Data("o".utf8))
        }
    }

    static var journalEvents: [MachineEvent] {
        let refresh = StoredSession(registrationType: .passwordless, expiresAt: now.addingTimeInterval(60),
                                    refreshExpiresAt: now.addingTimeInterval(86_400), profile: TransitionTable.profile)
        return TransitionTable.events + [.storedTokensInspected(.valid(refresh)), .storedTokensInspected(.expired(refresh)),
                                         .renewalSucceeded(refresh), .authenticated(refresh)]
    }

    @Test("every journal line: any number out of range makes that line unreadable, the others are kept")
    func journalLines() async throws {
        var checked = Set<String>()
        for (index, event) in Self.journalEvents.enumerated() {
            let entry = JournalEntry(sequence: index + 1, recordedAt: Self.now, event: event)
            for variant in try Self.variants(of: try entry.encoded()) {
                checked.insert(event.name + ":" + variant.path)
                #expect(throws: (any Error).self, "\(event.name) \(variant.path)") { try JournalEntry.decode(variant.data) }
            }
        }
        // Every event has `seq` and `at`; sessions add `expiresAt` and `refreshExpiresAt`; the offset its seconds.
        #expect(checked.contains("clockOffsetObserved:event.clockOffsetObserved.seconds"))
        #expect(checked.contains("renewalSucceeded:event.renewalSucceeded._0.refreshExpiresAt"))

        // In a journal: the damaged line is counted and left out; the lines around it are read.
        let good = try JournalEntry(sequence: 1, recordedAt: Self.now, event: .launched(isNative: true)).encoded()
        let later = try JournalEntry(sequence: 3, recordedAt: Self.now, event: .storedTokensInspected(.nothing)).encoded()
        for variant in try Self.variants(of: try JournalEntry(sequence: 2, recordedAt: Self.now,
                                                               event: .renewalSucceeded(TransitionTable.stored)).encoded()) {
            let journal = InMemoryJournal()
            for line in [good, variant.data, later] { try journal.append(line) }
            let oidc = OIDCConfiguration(issuer: URL(fileURLWithPath: "/idp"), clientID: "c",
                                         redirectURI: URL(fileURLWithPath: "/cb"))
            let service = RegStateService(configuration: RegStateConfiguration(oidc: oidc),
                                          dependencies: RegStateDependencies(store: InMemorySecureStore(), journal: journal,
                                                                             transport: try Simulator().transport,
                                                                             clock: ManualClock(start: Self.now)))
            #expect(try await service.journalEntries().map(\.sequence) == [1, 3], "\(variant.path)")
            #expect(try await service.unreadableJournalEntryCount() == 1, "\(variant.path)")
        }
    }

    @Test("a snapshot line: any number out of range is no snapshot")
    func snapshots() throws {
        for state in TransitionTable.states {
            let line = try JournalSnapshot(sequence: 7, state: state).encoded()
            #expect(JournalSnapshot.decode(line) != nil)
            for variant in try Self.variants(of: line) {
                #expect(JournalSnapshot.decode(variant.data) == nil, "\(state.caseName) \(variant.path)")
            }
        }
    }

    @Test("the pending login: any number out of range is no pending login; the credentials are untouched")
    func pendingLogin() async throws {
        let store = InMemorySecureStore()
        let tokens = TokenService(store: store, clock: ManualClock(start: Self.now))
        let request = AuthorizationRequest(url: URL(fileURLWithPath: "/authorize"), state: "s", nonce: "n",
                                           codeVerifier: "v", redirectURI: URL(fileURLWithPath: "/cb"), issuedAt: Self.now)
        // As the writer leaves it after a refused redirect: every number it can hold.
        var login = PendingLogin(request: request, issuer: "i", clientID: "c")
        login.refusedRedirects = 1
        try await tokens.savePending(login)
        let written = try #require(try store.data(forKey: PendingLogin.storeKey))
        var variants = try Self.variants(of: written)
        #expect(Set(variants.map(\.path)) == ["request.issuedAt", "version", "refusedRedirects"])
        // Whole numbers that decode as an Int but are no count: negative (a wider bound), Int.max (a trap at +1).
        for count in [-1, Int.min, Int.max, PendingLogin.refusalCounts.upperBound + 1] {
            let text = String(decoding: written, as: UTF8.self).replacingOccurrences(of: #""refusedRedirects":1"#,
                                                                                    with: #""refusedRedirects":\#(count)"#)
            #expect(text != String(decoding: written, as: UTF8.self))
            variants.append((path: "refusedRedirects = \(count)", data: Data(text.utf8)))
        }
        for variant in variants {
            let damaged = InMemorySecureStore([PendingLogin.storeKey: variant.data, TokenService.credentialsKey: Data("c".utf8)])
            let read = try await TokenService(store: damaged, clock: ManualClock(start: Self.now)).pending(PendingLogin.self)
            #expect(read == nil, "\(variant.path)")
            #expect(try damaged.data(forKey: TokenService.credentialsKey) == Data("c".utf8))
        }
    }

    @Test("the ongoing-access record: any number out of range is a typed unreadable record")
    func ongoingAccess() throws {
        let store = InMemorySecureStore()
        let token = OAuthToken(accessToken: "a", accessTokenExpiresAt: Self.now, refreshToken: "r",
                               refreshTokenExpiresAt: Self.now.addingTimeInterval(1), tokenType: "Bearer")
        let scope = OngoingAccessScope(from: Self.now, to: Self.now.addingTimeInterval(2))
        try OngoingAccessTokenStore(store: store).save(.init(token: token, scope: scope))
        let written = try #require(try store.data(forKey: OngoingAccessTokenStore.recordKey))
        let variants = try Self.variants(of: written)
        #expect(Set(variants.map(\.path)).count == 5)
        for variant in variants {
            let damaged = InMemorySecureStore([OngoingAccessTokenStore.recordKey: variant.data])
            #expect(throws: StoreError.self, "\(variant.path)") { try OngoingAccessTokenStore(store: damaged).load() }
        }
    }

    @Test("a time is printed or shown as out of range, never a trap",
          arguments: hostile + [.infinity, -.infinity, .nan, 0, 253_402_300_799])
    func printing(_ seconds: Double) {
        let text = RecordedTime.text(Date(timeIntervalSince1970: seconds))
        switch seconds {
        case 0: #expect(text == "1970-01-01T00:00:00Z")
        case 253_402_300_799: #expect(text == "9999-12-31T23:59:59Z")
        default: #expect(text == RecordedTime.outOfRangeText)
        }
        #expect(RecordedTime.date(seconds) == nil || (0...RecordedTime.latest).contains(seconds))
        // A lifetime computed from any number stays in range.
        #expect(RecordedTime.contains(RecordedTime.expiry(after: seconds, from: Self.now)))
    }
}
