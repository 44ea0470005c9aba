import Foundation
import RegState
import RegStateOngoingAccess
import RegStateTesting

/// Through to what is printed: the other targets stop at the parsers, and a time out of range traps where a parsed
/// time becomes text. The first byte picks the record the rest is (mode % 4): the credentials record, the journal
/// (each line framed), the pending social login, the ongoing-access record. A service on a native platform launches
/// on it (the network answers 503), then every instant the state, the journal, the pending login and the ongoing
/// access hold is turned into text the way `status`, `events` and `ongoing-access` print it
/// (``RecordedTime/text(_:)``), with every description.
enum FuzzPrinted {
    static let native = FixedPlatformService(PlatformInfo(isNative: true, type: "ios", formFactor: "phone"))

    static func run(_ data: Data) {
        guard let mode = data.first else { return }
        let rest = Data(data.dropFirst())
        let journal = InMemoryJournal()
        let store = InMemorySecureStore()
        switch mode % 4 {
        case 0: try? store.set(rest, forKey: TokenService.credentialsKey)
        case 1: for line in rest.split(separator: UInt8(ascii: "\n")) { try? journal.append(Data(line)) }
        case 2: try? store.set(rest, forKey: "pending_login")
        default: try? store.set(rest, forKey: OngoingAccessTokenStore.recordKey)
        }
        let service = RegStateService(
            configuration: RegStateConfiguration(oidc: FuzzFixture.oidc),
            dependencies: RegStateDependencies(store: store, journal: journal,
                                               transport: CannedTransport { _ in HTTPResponse(status: 503) },
                                               clock: ManualClock(start: FuzzFixture.now, waitsOnWallTime: true), platform: native))
        blocking {
            let state = await service.start()
            var printed = [String(describing: state)]
            if case .active(let session) = state, let expiresAt = session.expiresAt {
                printed.append(RecordedTime.text(expiresAt))
            }
            for entry in (try? await service.journalEntries()) ?? [] {
                printed.append(RecordedTime.text(entry.recordedAt))
                printed.append(entry.event.name)
                if let details = entry.event.redactedDetails { printed.append(String(decoding: details.serialized(), as: UTF8.self)) }
            }
            _ = try? await service.unreadableJournalEntryCount()
            if let pending = await service.pendingSocialLogin() {
                printed += [RecordedTime.text(pending.startedAt), RecordedTime.text(pending.expiresAt)]
            }
            if let record = try? OngoingAccessTokenStore(store: store).load() {
                printed += [String(describing: record.token), RecordedTime.text(record.token.accessTokenExpiresAt),
                            RecordedTime.text(record.token.refreshTokenExpiresAt)]
            }
            _ = printed.joined(separator: "\n")
        }
    }
}
