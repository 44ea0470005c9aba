import Foundation
import Testing
@testable import RegState

/// What a launch reads and writes without `Codable` (issue 19, `regstate status` as a whole process): the credentials
/// record and the numbers of journal lines (the journal's lines: ``JournalFixtureTests``). Each must agree exactly with
/// the `Codable` form earlier versions wrote.
@Suite("Launch reads and writes without Codable")
struct LaunchCodecTests {
    private static let awkward = "A \"quoted\" \\ back/slash\n\t\r\u{08}\u{0C}\u{01}\u{1F}\u{7F} é 😀 \u{2028}"

    private static let profiles = [
        Profile(subject: "email|67023fc4a7ff2a46", issuer: "https://idp.regstate.sim", email: "alice@example.com",
                emailVerified: true, name: "Alice Example"),
        Profile(subject: "s", issuer: "https://i.example/a/b"),
        Profile(subject: awkward, issuer: awkward, email: awkward, emailVerified: false, name: awkward, picture: awkward),
    ]

    private static let dates = [Date(timeIntervalSince1970: 1_795_539_717.7914052), Date(timeIntervalSince1970: 1_800_000_000),
                                Date(timeIntervalSince1970: 0.1),
                                // The latest a record may hold (``RecordedTime``), less the refresh lifetime added below.
                                Date(timeIntervalSince1970: RecordedTime.latest - 86_400.5)]

    private static func encoded(_ credentials: StoredCredentials) throws -> Data {
        credentials.encoded
    }

    /// A credentials record as the previous main wrote it with `JSONEncoder` (sorted keys, seconds since 1970, slashes
    /// escaped), its tokens shortened.
    static let previousMainRecord = #"{"access_token":"ac-x","client_id":"regstate-cli","expires_at":1795714545.8828616,"#
        + #""id_token":"id-x","issued_at":1795710945.8828616,"issuer":"https:\/\/idp.regstate.sim","profile":"#
        + #"{"email":"alice@example.com","emailVerified":true,"issuer":"https:\/\/idp.regstate.sim","#
        + #""name":"Alice Example","subject":"email|67023fc4a7ff2a46"},"refresh_expires_at":1798302945.8828616,"#
        + #""refresh_token":"re-x","registration_type":"SOCIAL","security_token":"se-x","#
        + #""security_token_expires_at":1795714545.923201,"session_id":"se-x","stage":"confirmed","token_type":"Bearer"}"#

    @Test("a credentials record is written byte for byte as the previous main's JSONEncoder wrote it")
    func credentialsBytes() throws {
        let record = try #require(StoredCredentials.read(Data(Self.previousMainRecord.utf8)))
        #expect(String(decoding: record.encoded, as: UTF8.self) == Self.previousMainRecord)
    }

    @Test("a credentials record is read back as it was written, every member, with every profile and date")
    func credentialsRoundTrip() throws {
        for profile in Self.profiles {
            for date in Self.dates {
                var full = StoredCredentials(stage: .confirmed, accessToken: "at")
                full.registrationType = .social
                full.profile = profile
                full.idToken = "id"; full.refreshToken = "rt"; full.securityToken = "st"; full.tokenType = "DPoP"
                full.expiresAt = date; full.issuedAt = Self.dates[1]; full.refreshExpiresAt = Self.dates[2]
                full.securityTokenExpiresAt = Self.dates[3]; full.renewalStartedAt = date
                full.issuer = "https://idp.regstate.sim"; full.clientID = "client"; full.dpopThumbprint = "jkt"
                #expect(StoredCredentials.read(try Self.encoded(full)) == full)
            }
        }
        let bare = StoredCredentials(stage: .nonNative, accessToken: "token")
        #expect(StoredCredentials.read(try Self.encoded(bare)) == bare)
    }

    /// Records as earlier versions wrote them (JSONEncoder, sorted keys, seconds since 1970), each with the members
    /// it knew: the first format (no issued_at, token_type, dpop_jkt, renewal mark or binding), then one member
    /// added at a time; plus nulls, unknown members and escapes, which the Codable reading of those versions took.
    static let earlierFormats: [(String, StoredCredentials)] = {
        var first = StoredCredentials(stage: .confirmed, accessToken: "at")
        first.registrationType = .passwordless
        first.profile = Profile(subject: "s", issuer: "https://i", email: "a@example.com", emailVerified: true)
        first.idToken = "id"; first.refreshToken = "rt"
        first.expiresAt = Date(timeIntervalSince1970: 1_800_000_000)
        first.refreshExpiresAt = Date(timeIntervalSince1970: 1_800_086_400)
        first.securityToken = "st"; first.securityTokenExpiresAt = Date(timeIntervalSince1970: 1_800_003_600)
        let firstText = #"{"access_token":"at","expires_at":1800000000,"id_token":"id","#
            + #""profile":{"email":"a@example.com","emailVerified":true,"issuer":"https:\/\/i","subject":"s"},"#
            + #""refresh_expires_at":1800086400,"refresh_token":"rt","registration_type":"PASSWORDLESS","#
            + #""security_token":"st","security_token_expires_at":1800003600,"stage":"confirmed"}"#
        var issued = first
        issued.issuedAt = Date(timeIntervalSince1970: 1_799_996_400)
        var typed = issued
        typed.tokenType = "Bearer"
        var marked = typed
        marked.renewalStartedAt = Date(timeIntervalSince1970: 1_799_999_999.5)
        var bound = marked
        bound.issuer = "https://i"; bound.clientID = "c"
        var keyed = bound
        keyed.tokenType = "DPoP"; keyed.dpopThumbprint = "jkt"
        func adding(_ members: String, to text: String) -> String { String(text.dropLast()) + "," + members + "}" }
        let issuedText = adding(#""issued_at":1799996400"#, to: firstText)
        let typedText = adding(#""token_type":"Bearer""#, to: issuedText)
        let markedText = adding(#""renewal_started_at":1799999999.5"#, to: typedText)
        let boundText = adding(#""client_id":"c","issuer":"https:\/\/i""#, to: markedText)
        let keyedText = adding(#""dpop_jkt":"jkt""#, to: boundText).replacingOccurrences(of: #""Bearer""#, with: #""DPoP""#)
        var provisional = StoredCredentials(stage: .provisional, accessToken: "a")
        provisional.profile = Profile(subject: "s", issuer: "i")
        provisional.expiresAt = Date(timeIntervalSince1970: 1_800_000_000)
        var escaped = StoredCredentials(stage: .confirmed, accessToken: "a\u{e9}/")
        escaped.registrationType = .passwordless
        escaped.expiresAt = Date(timeIntervalSince1970: 1.5e3)  // an exponent; a negative time is out of range (RecordedTime)
        var host = StoredCredentials(stage: .confirmed, accessToken: "st")
        host.registrationType = .hostSSO
        return [
            (firstText, first), (issuedText, issued), (typedText, typed), (markedText, marked), (boundText, bound),
            (keyedText, keyed),
            (#"{"access_token":"token","stage":"nonNative"}"#, StoredCredentials(stage: .nonNative, accessToken: "token")),
            (#"{"stage":"provisional","access_token":"a","profile":{"subject":"s","issuer":"i","emailVerified":false,"hasPicture":1},"expires_at":1800000000,"refresh_token":null,"future_member":[1,{"x":null}]}"#,
             provisional),
            (#"{"stage":"confirmed","registration_type":"PASSWORDLESS","access_token":"a\u00e9\/","expires_at":1.5e3}"#, escaped),
            (#"{"access_token":"st","registration_type":"HOST_SSO","stage":"confirmed"}"#, host),
        ]
    }()

    @Test("a credentials record of every earlier format is read by the one reader, member for member",
          arguments: 0..<earlierFormats.count)
    func earlierFormatsRead(_ index: Int) {
        let (text, expected) = Self.earlierFormats[index]
        #expect(StoredCredentials.read(Data(text.utf8)) == expected)
    }

    @Test("a record the earlier Codable form refused is damaged for the one reader too",
          arguments: [
              #"{"stage":"promoted","access_token":"a"}"#, #"{"stage":"confirmed"}"#, #"{"access_token":"a"}"#,
              #"{"stage":"confirmed","access_token":7}"#, #"{"stage":"confirmed","access_token":"a","expires_at":"soon"}"#,
              #"{"stage":"confirmed","access_token":"a","registration_type":"FAX"}"#,
              #"{"stage":"confirmed","access_token":"a","profile":{"subject":"s","issuer":"i"}}"#,
              #"{"stage":"confirmed","access_token":"a","profile":{"subject":"s","issuer":"i","emailVerified":false,"name":3}}"#,
              #"["stage"]"#, "not json",
          ])
    func refusedRecords(_ text: String) {
        #expect(StoredCredentials.read(Data(text.utf8)) == nil)
    }

    @Test("a line's number is read as the entry decoder reads it; out of range or unreadable is no number",
          arguments: [("7", 7), ("9007199254740991", 9_007_199_254_740_991), ("9007199254740992", nil), ("1e300", nil),
                      ("-1", -1), ("\"7\"", nil), ("7.5", nil)] as [(String, Int?)])
    func lineNumbers(_ seq: String, _ expected: Int?) {
        let line = Data(#"{"at":1800000000,"event":{"launched":{"isNative":true}},"seq":\#(seq)}"#.utf8)
        #expect(JournalLines.number(in: line) == expected)
        let snapshot = Data(#"{"snapshot":{"seq":\#(seq),"state":{"unsettled":{}}}}"#.utf8)
        #expect(JournalLines.number(in: snapshot, under: "snapshot") == expected)
        if let expected, expected >= 1 {
            #expect((try? JournalEntry.decode(line))?.sequence == expected)
        } else {
            #expect((try? JournalEntry.decode(line)) == nil)
        }
    }
}
