import Foundation
import RegState

/// The launch-budget world's invariants on the late renewal (``LaunchBudgetWatch`` checks the budget itself).
extension SimulationRun {
    /// For every live process whose launch settled while its renewal stalled, and to which the stalled answer has
    /// since come with new tokens that the engine stored: once ``RegStateService/finishPendingRenewal()`` returns,
    /// its journal shows that renewal applied — exactly one `renewalSucceeded` after the launch settled and before the
    /// next renewal was asked for.
    /// - `late-renewal-kept`: none (the session stays offline on the tokens it had, and its new ones go unused);
    /// - `late-renewal-once`: more than one (the same answer applied twice).
    /// An answer the engine did not store (its ID token failed a check, the process went offline for the JWKS) or
    /// stored and then replaced is not checked, nor a session a logout, forced logout or clear-state ended meanwhile
    /// (a clear-state empties the journal, so ``LaunchBudgetWatch/cleared(_:)`` drops the launch as it begins). Only
    /// the stalled answer itself is the late one (``LaunchBudgetWatch/answered(_:accessToken:)``).
    func checkLateRenewals() async {
        guard let watch = budgetWatch else { return }
        for (incarnation, settledAt, accessToken) in watch.takeLateDeliveries() {
            guard let slot = slots.first(where: { $0.incarnation == incarnation }), let service = slot.service,
                liveness.isAlive(incarnation)
            else { continue }
            await service.finishPendingRenewal()
            // The record's current access token, not the token anywhere in it: a renewal after a rejection keeps the
            // rejected token in its hold, and that renewal replaced the late answer.
            guard liveness.isAlive(incarnation),
                let record = disk.peek("credentials").flatMap({ try? JSONValue.parse($0) }),
                record["access_token"]?.stringValue == accessToken, let entries = try? await service.journalEntries()
            else {
                ledger.note("check p\(incarnation) late launch renewal: its tokens are not the ones on the disk (not checked)")
                continue
            }
            var applied = 0
            scan: for entry in entries where entry.sequence > settledAt {
                switch entry.event {
                case .renewalSucceeded: applied += 1
                case .renewalRequested where applied > 0: break scan  // the next renewal (callers that joined
                // the held one journal their request before it lands)
                case .logoutRequested, .forcedLogout, .clearStateRequested, .credentialsCleared: return
                default: continue
                }
            }
            if applied == 0 {
                let after = entries.filter { $0.sequence > settledAt }.map { "\($0.sequence) \($0.event.name)" }
                ledger.violation("late-renewal-kept", "p\(incarnation)'s late launch renewal stored new tokens, but its "
                                 + "journal after the launch settled (\(settledAt)) shows no renewal applied: \(after)")
            } else if applied > 1 {
                ledger.violation("late-renewal-once", "p\(incarnation)'s late launch renewal was applied \(applied) times")
            } else {
                ledger.note("check p\(incarnation) late launch renewal applied once")
            }
        }
    }
}
