import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// Issue 20: what the engine says is true. An offline session with an expired token does not claim a valid token;
/// a store that could not be read at launch is read again by the next call that needs it; a logout leaves no record
/// of the user in the journal; the journal's printed details have no Codable `_0` wrappers.
@Suite("Truthful states")
struct TruthfulStateTests {
    @Test("after a recoverable E with an expired token the session is Active B offline with renewalPending; a renewal clears it")
    func offlineExpiredIsNotClaimedValid() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        harness.clock.advance(by: 3600)
        await harness.simulator.setOffline(true)
        let service = harness.launch()
        let state = await service.start()
        guard case .active(let session) = state else { Issue.record("not active: \(state)"); return }
        #expect(state.letter == "B")
        #expect(session.connectivity.isOffline)
        #expect(session.renewalPending)
        await harness.simulator.setOffline(false)
        // Past the backoff the failure stored (1 s ± 20 %): before it, a call answers offline without asking.
        harness.clock.advance(by: 2)
        _ = try await service.validAccessToken().token
        guard case .active(let renewed) = await service.state else { Issue.record("not active"); return }
        #expect(renewed.activation == .renewed)
        #expect(!renewed.renewalPending)
        // A session of the previous format (no renewalPending) still decodes, as false.
        let old = Data(#"{"activation":"B","connectivity":{"online":{}},"registrationType":"SOCIAL"}"#.utf8)
        #expect(try Session(json: JSONValue.parse(old)).renewalPending == false)
    }

    @Test("after an unreadable store at launch, validAccessToken reads it again and hands out the token (B), no start() needed")
    func unreadableStoreRecoversOnNextCall() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        harness.store.failNextRead(.unreadable(key: "credentials", reason: "io"))
        let service = harness.launch()
        guard case .failed(.renewal(.storage(let reason))) = await service.start() else {
            Issue.record("the launch did not fail on the store"); return
        }
        #expect(reason.contains("io"))
        #expect(RegStateError.renewal(.storage(reason)).errorDescription?.contains("reads it again") == true)
        #expect(!(try await service.validAccessToken().token).isEmpty)
        #expect(await service.state.letter == "B")
    }

    @Test("after an unreadable store at launch, renewSession reads the store again instead of doing nothing")
    func unreadableStoreRecoversOnRenewSession() async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        harness.store.failNextRead(.unreadable(key: "credentials", reason: "io"))
        let service = harness.launch()
        #expect(await service.start().letter == "E")
        #expect(await service.renewSession().letter == "B")
    }

    @Test("after logout the journal holds no email, name or subject of the user, and still folds to D across a relaunch")
    func logoutForgetsTheUser() async throws {
        let harness = try EngineHarness()
        let service = try await harness.registeredService(email: "alice@example.com")
        guard case .active(let session) = await service.state, let profile = session.profile else {
            Issue.record("not registered"); return
        }
        let before = String(decoding: harness.journal.rawBytes, as: UTF8.self)
        #expect(before.contains(profile.subject), "the journal held the user before the logout")
        try await service.logout()
        let after = String(decoding: harness.journal.rawBytes, as: UTF8.self)
        for personal in [profile.subject, "alice@example.com", "a***@example.com", profile.name ?? "Alice"] {
            #expect(!after.contains(personal), "\(personal) is still in the journal")
        }
        #expect(try await service.journalFold() == .registrationRequired)
        #expect(await harness.launch().start() == .registrationRequired)
    }

    @Test("the journal's printed details name every value: no Codable _0 wrapper in any sample event")
    func noUnderscoreZero() throws {
        for event in TransitionTable.events + [.renewalFailed(.storage("io"), stored: nil),
                                               .registrationFailed(.rateLimited(retryAfter: 5))] {
            guard let details = event.redactedDetails else { continue }
            let text = String(decoding: details.serialized(), as: UTF8.self)
            #expect(!text.contains("_0"), "\(event.name): \(text)")
        }
        let failed = MachineEvent.renewalFailed(.transient(.noInternet), stored: TransitionTable.stored).redactedDetails
        #expect(failed?.objectValue?["value"]?.objectValue?["transient"] == "noInternet")
    }
}
