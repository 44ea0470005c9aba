import Foundation
import Testing
@testable import RegState

/// The backoff holds are two new members of the credentials record: a record the previous main wrote (rejection holds,
/// no backoff) is read member for member, and a record with backoffs is read back as written.
@Suite("The credentials record with backoff holds: the previous format read, the new one round-trips")
struct StoredBackoffFormatTests {
    /// A record as a61f534 wrote it, with both rejection holds and no backoff member.
    static let previousFormat = #"{"access_token":"at","access_token_hold":{"backoff":60,"until":1800000060},"#
        + #""client_id":"c","expires_at":1800000000,"issuer":"https:\/\/i","refresh_token":"rt","#
        + #""registration_type":"SOCIAL","security_token":"st","security_token_hold":{"backoff":30,"until":1800000030},"#
        + #""session_id":"s","stage":"confirmed"}"#

    @Test("a store the previous format wrote is read: its holds kept, no backoff, and written back byte for byte")
    func previousFormatRead() throws {
        let record = try #require(StoredCredentials.read(Data(Self.previousFormat.utf8)))
        #expect(record.accessTokenHold == RejectionHold(until: Date(timeIntervalSince1970: 1_800_000_060), backoff: 60))
        #expect(record.securityTokenHold == RejectionHold(until: Date(timeIntervalSince1970: 1_800_000_030), backoff: 30))
        #expect(record.accessTokenBackoff == nil && record.securityTokenBackoff == nil)
        #expect(String(decoding: record.encoded, as: UTF8.self) == Self.previousFormat)
    }

    @Test("backoffs are written in sorted place and read back; a damaged one damages the record as every member does")
    func roundTrip() throws {
        var record = try #require(StoredCredentials.read(Data(Self.previousFormat.utf8)))
        record.accessTokenBackoff = RejectionHold(until: Date(timeIntervalSince1970: 1_800_000_001.5), backoff: 1.6)
        record.securityTokenBackoff = RejectionHold(until: Date(timeIntervalSince1970: 1_800_003_600), backoff: 3_600)
        record.accessTokenBackoffIssue = .noInternet
        record.securityTokenBackoffIssue = .ssoUnspecifiedIssue
        let text = String(decoding: record.encoded, as: UTF8.self)
        #expect(text.contains(#""access_token":"at","access_token_backoff":{"backoff":1.6,"until":1800000001.5},"#
                              + #""access_token_backoff_issue":"noInternet","access_token_hold""#))
        #expect(text.contains(#""security_token":"st","security_token_backoff":{"backoff":3600,"until":1800003600},"#
                              + #""security_token_backoff_issue":"ssoUnspecifiedIssue","security_token_hold""#))
        #expect(StoredCredentials.read(record.encoded) == record)
        let damaged = text.replacingOccurrences(of: #"{"backoff":1.6,"#, with: #"{"backoff":"soon","#)
        #expect(StoredCredentials.read(Data(damaged.utf8)) == nil)
    }
}
