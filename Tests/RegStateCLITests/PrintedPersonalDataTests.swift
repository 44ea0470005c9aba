import Foundation
import Testing
@testable import regstate
import RegState

/// The one policy for personal data in printed output: the human lines, `--json` and `events` all mask email
/// addresses the same way (`a***@example.com`), and show the name and subject.
@Suite("Printed personal data")
struct PrintedPersonalDataTests {
    static let profile = Profile(subject: "user-1", issuer: "https://idp.example", email: "alice@example.com",
                                 emailVerified: true, name: "Alice Example")
    static let stored = StoredSession(registrationType: .social, expiresAt: Date(timeIntervalSince1970: 1_800_000_000),
                                      profile: profile)
    static let events: [RegStateEvent] = [
        .awaitingConfirmation(profile),
        .sessionActive(stored.session(.registered)),
        .error(.registration(.tokenRequestFailed(error: "invalid_grant", description: "no user alice@example.com"))),
    ]

    /// Every way the CLI prints `event`: the human line, the `--json` object, and the journal line (human and JSON).
    static func printed(_ event: RegStateEvent) -> [String] {
        var lines = [EventText.human(event), String(decoding: EventText.json(event).serialized(), as: UTF8.self)]
        let machineEvent: MachineEvent? = switch event {
        case .awaitingConfirmation: .authenticated(stored)
        case .sessionActive: .registrationConfirmed(stored)
        case .error(.registration(let failure)): .registrationFailed(failure)
        case .error(.renewal), .registrationRequired, .awaitingUser: nil
        }
        if let machineEvent {
            let entry = JournalEntry(sequence: 1, recordedAt: Date(timeIntervalSince1970: 0), event: machineEvent)
            lines += [JournalText.human(entry), String(decoding: JournalText.json(entry).serialized(), as: UTF8.self)]
        }
        return lines
    }

    @Test("human, --json and events mask the email the same way and keep the name", arguments: events)
    func oneMaskingPolicy(_ event: RegStateEvent) {
        let lines = Self.printed(event)
        #expect(lines.count == 4)
        for line in lines {
            #expect(!line.contains("alice@example.com"), "\(line)")
            #expect(line.contains("a***@example.com"), "\(line)")
        }
        if case .error = event { return }
        for line in lines { #expect(line.contains("Alice Example"), "\(line)") }
    }

    @Test("the state summary uses the state's lettered event")
    func stateSummaryIsTheEventLine() {
        for event in Self.events {
            let state: RegState = switch event {
            case .awaitingConfirmation(let profile): .awaitingConfirmation(profile)
            case .sessionActive(let session): .active(session)
            case .error(let error): .failed(error)
            case .registrationRequired, .awaitingUser: .registrationRequired
            }
            #expect(state.event == event)
            #expect(EventText.human(state) == EventText.human(event))
        }
        #expect(EventText.human(.unsettled) == "Unsettled")
        #expect(EventText.human(.authenticating(.social)) == "Authenticating")
    }
}
