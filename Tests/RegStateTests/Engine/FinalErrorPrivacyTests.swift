import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// After a final **E** (the provider ended the session) the user is gone from the device: the journal keeps why, but
/// no personal data (issue 20, seed 002: "no record on this device of previous attempts to register").
@Suite("Final E leaves no personal data in the journal")
struct FinalErrorPrivacyTests {
    @Test("the provider refuses the renewal: E final, D; the journal keeps the reason and the dates, not the user")
    func finalErrorRedactsTheProfile() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService(email: "alice@example.com")
        guard case .active(let session) = await service.state, let profile = session.profile else {
            Issue.record("not registered"); return
        }
        let before = String(decoding: harness.journal.rawBytes, as: UTF8.self)
        #expect(before.contains("alice@example.com"), "the journal held the user while the session lived")
        await harness.simulator.setRefusesRefresh(true)
        harness.clock.advance(by: 3_600)
        let relaunched = harness.launch()
        #expect(await relaunched.start() == .registrationRequired)

        let after = String(decoding: harness.journal.rawBytes, as: UTF8.self)
        for personal in [profile.subject, "alice@example.com", "a***@example.com", profile.name ?? "Alice"] {
            #expect(!after.contains(personal), "\(personal) is still in the journal")
        }
        let entries = try await relaunched.journalEntries()
        #expect(entries.contains { entry in
            if case .renewalFailed(.denied, _) = entry.event { return true }
            return false
        }, "the journal still says why the session ended")
        #expect(entries.contains { $0.event == .credentialsCleared })
        #expect(entries.map(\.sequence) == entries.map(\.sequence).sorted(), "numbers kept, in order")
        #expect(try await relaunched.journalFold() == .registrationRequired)
        #expect(await harness.launch().start() == .registrationRequired)
    }

    @Test("a passwordless registration then a final E: the address typed is gone from the journal too")
    func passwordlessAddressRedacted() async throws {
        let harness = try EngineHarness()
        let service = harness.launch()
        await service.start()
        try await service.beginPasswordlessRegistration(email: "carol@example.com")
        let code = try #require(await harness.simulator.latestCode(for: "carol@example.com"))
        try await service.completePasswordlessRegistration(code: code)
        try await service.confirmRegistration()
        await harness.simulator.setRefusesRefresh(true)
        harness.clock.advance(by: 3_600)
        #expect(await harness.launch().start() == .registrationRequired)
        let after = String(decoding: harness.journal.rawBytes, as: UTF8.self)
        #expect(!after.contains("carol@example.com"))
        #expect(!after.contains("c***@example.com"))
    }

    @Test("redaction keeps every event's case and reason: the table's sample events fold the same way")
    func redactionKeepsTheShape() {
        for event in TransitionTable.events {
            let redacted = PersonalDataRedaction.event(event)
            #expect(redacted.name == event.name)
            if case .renewalFailed(let failure, _) = event, case .renewalFailed(let kept, _) = redacted {
                #expect(kept == failure)
            }
        }
    }
}
