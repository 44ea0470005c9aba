import Foundation
import Testing
import RegState

@Suite("Journal format")
struct JournalFormatTests {
    /// A line as the engine wrote it before `StoredSession.hasRefreshToken` was removed.
    static let oldLine = #"{"at":1800000000,"event":{"renewalSucceeded":{"_0":{"expiresAt":1800003600,"hasRefreshToken":true,"#
        + #""profile":{"email":"alice@example.com","emailVerified":true,"issuer":"https:\/\/idp.example","name":"Alice","#
        + #""subject":"user-1"},"registrationType":"SOCIAL"}}},"seq":7}"#

    @Test("a journal line written by the previous format still decodes, and folds as before")
    func oldFormatDecodes() throws {
        let entry = try JournalEntry.decode(Data(Self.oldLine.utf8))
        #expect(entry.sequence == 7)
        guard case .renewalSucceeded(let stored) = entry.event else {
            Issue.record("decoded \(entry.event.name)")
            return
        }
        #expect(stored.profile.subject == "user-1")
        #expect(stored.expiresAt == Date(timeIntervalSince1970: 1_800_003_600))
        #expect(JournalEntry.fold([entry]) == .active(stored.session(.renewed)))
        // What the engine writes now has no hasRefreshToken, and reads back the same.
        let rewritten = try entry.encoded()
        #expect(!String(decoding: rewritten, as: UTF8.self).contains("hasRefreshToken"))
        #expect(try JournalEntry.decode(rewritten) == entry)
    }
}
