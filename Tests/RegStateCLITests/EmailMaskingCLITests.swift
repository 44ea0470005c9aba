import Foundation
import RegState
import RegStateTestSupport
import Testing

/// Issue 43, D, through the built CLI: anything shaped like `local@host` is an address and is masked, also without a
/// dot after the `@` (`john.smith@corp`, the mistyped address a user pastes into a bug report); the format hint is
/// written so that masking leaves it readable.
@Suite("CLI: every address masked, the hint readable")
struct EmailMaskingCLITests {
    /// Addresses a provider may echo in an error description, each with what the CLI must print instead.
    static let addresses: [(address: String, masked: String)] = [
        ("john.smith@corp", "j***@corp"),
        ("alice@localhost", "a***@localhost"),
        ("bob@example.com", "b***@example.com"),
        ("(carol@intranet)", "(c***@intranet)"),
    ]

    @Test("Given a journaled provider answer that echoes an address, events and events --json print it masked",
          arguments: addresses)
    func eventsMaskEveryAddress(_ address: String, _ masked: String) async throws {
        let device = try CLIScenario()
        _ = try await device.run(["status"])
        let failure = MachineEvent.registrationFailed(.tokenRequestFailed(
            error: "invalid_grant", description: "no user \(address) here"))
        let journal = try FileJournal(url: device.store.appendingPathComponent("journal.log"))
        try journal.append(try JournalEntry(sequence: 99, recordedAt: Date(timeIntervalSince1970: 1_800_000_000),
                                            event: failure).encoded())
        let bare = address.trimmingCharacters(in: CharacterSet(charactersIn: "()"))
        for arguments in [["events"], ["events", "--json"]] {
            let events = try await device.run(arguments)
            #expect(events.status == 0, "\(arguments): \(events.stderr)")
            #expect(events.stdout.contains("registrationFailed"), "\(arguments): \(events.stdout)")
            #expect(!events.stdout.contains(bare) && !events.stderr.contains(bare), "\(arguments): \(events.stdout)")
            #expect(events.stdout.contains(masked), "\(arguments): \(events.stdout)")
        }
    }

    @Test("Given an address the provider cannot use, the Error F line and the hint read as written, nothing half-masked")
    func hintReadsAsWritten() async throws {
        let device = try CLIScenario()
        let run = try await device.run([], input: "2\njohn.smith@corp\nq\n")
        let printed = run.stdout + run.stderr
        #expect(run.stdout.contains("Error F: That email address cannot be used"), "\(run.stdout)")
        #expect(!printed.contains("***"), "no hint is masked into a wrong echo: \(printed)")
        #expect(!printed.contains("john.smith@corp"), "the typed address is not echoed: \(printed)")
        #expect(printed.contains("example.com"), "the hint still shows the shape of an address: \(printed)")
        let events = try await device.run(["events"])
        #expect(!events.stdout.contains("***@example.com"), "\(events.stdout)")
    }
}
