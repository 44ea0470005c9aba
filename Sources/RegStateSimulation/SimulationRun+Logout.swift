import Foundation
import RegState
import RegStateSimulator
import RegStateTesting

/// What a logout, forced logout or clear-state leaves on disk (`logout-clears`): no token of the ended session, and
/// the records of another process's abandoned registration only.
extension SimulationRun {
    /// A logout, forced logout or clear-state returned: from now on no token may reach the disk until someone
    /// registers again. `ended` is ``registrationsEnded`` as the call began.
    func loggedOutCompleted(by service: RegStateService, removingEverything: Bool = false, registrationsEndedBefore ended: Int) {
        // A process that ended meanwhile completed nothing on disk.
        guard let index = slots.firstIndex(where: { $0.service === service }),
              liveness.isAlive(slots[index].incarnation) else { return }
        // The other client's process (the another-client world) never holds a session (the provider does not know
        // its client): its logout ends only what it holds, and the world client's record is not its to remove
        // (issuer-client-binding; seed 8280003082). Its clear-state wipes the store, as clear-state does.
        if isAnotherClient(index), !removingEverything { return }
        // A registration running meanwhile (in another process) may store tokens again: that is not a comeback;
        // nor is one that ended while this call ran (seed 11600001191: it stored its session after the removal).
        guard registrationsInFlight == 0, registrationsEnded == ended else { return }
        loggedOut = true
        // A registration whose process died before confirming left its provisional tokens: a logout leaves another
        // process's registration alone, and the next launch removes them. clear-state removes them too.
        abandonedProvisional = removingEverything ? nil : disk.peek("credentials").flatMap { Self.isProvisional($0) ? $0 : nil }
        // Its DPoP key too: the next launch removes the provisional record, and the key on disk is still that
        // registration's, not the ended session's (seed 10600007205: the launch that removed the record crashed).
        abandonedDPoPKey = abandonedProvisional == nil ? nil : disk.peek(DPoPKeyStore.recordKey)
        // dpop-key-rotates: the next registration must prove with a new key.
        network.dpop.sessionEnded()
        checkNoTokenOnDisk("after logout")
    }

    /// logout-clears: after a logout, forced logout or clear-state, no token of the session is on disk, and no
    /// renewal that was in flight brings one back.
    func checkNoTokenOnDisk(_ context: String) {
        // A locked device refused the removal: the record stays until a process removes it after the
        // unlock; the session it holds ends at its next server contact.
        if disk.removalRefusedByDevice { return }
        if let abandoned = abandonedProvisional, disk.peek("credentials") == abandoned { return }
        if disk.peek("credentials") != nil {
            ledger.violation("logout-clears", "credentials on disk \(context)")
        }
        if let key = disk.peek(DPoPKeyStore.recordKey), key != abandonedDPoPKey {
            ledger.violation("logout-clears", "the DPoP key is still on disk \(context)")
        }
    }

    /// Whether `record` (the credentials record's bytes) holds provisional tokens: a registration's, awaiting its
    /// confirmation, never a session.
    static func isProvisional(_ record: Data) -> Bool {
        (try? JSONValue.parse(record))?["stage"]?.stringValue == "provisional"
    }
}
