import Foundation
import RegState
import RegStateSimulator

/// The PAR world (``SimulationWorld/pushedAuthorization``): a self-renewing world whose provider offers or requires
/// pushed authorization requests (RFC 9126) with a drawn `request_uri` lifetime, whose engine pushes when offered or
/// requires it, and whose provider turns every push away for a while now and then. Every registration then goes
/// through `POST /par` (with the network's faults), and the invariants are checked as in every world.
extension SimulationRun {
    /// Draws the provider's offer, the lifetime of a pushed request and the engine's mode (from
    /// ``worldRandom``), and notes them in the ledger.
    func preparePushedAuthorization() async {
        let mode: SimulatorPushedAuthorization = worldRandom.chance(50) ? .offered : .required
        let lifetime: TimeInterval = [30, 90, 600][worldRandom.below(3)]
        enginePushedAuthorization = worldRandom.chance(30) ? .required : .whenOffered
        await simulator.setPushedAuthorization(mode, lifetime: lifetime)
        ledger.note("world provider PAR \(mode.rawValue), request_uri lives \(Int(lifetime))s; engine PAR "
                    + enginePushedAuthorization.rawValue)
    }

    /// Now and then the provider refuses every push (`invalid_request` or `unauthorized_client`), and later relents.
    func actPushedAuthorization() async {
        guard worldRandom.chance(5) else { return }
        let refusing = await simulator.configuration.pushedAuthorizationRefusal != nil
        let refusal: String? = refusing ? nil : (worldRandom.chance(50) ? "invalid_request" : "unauthorized_client")
        await simulator.setPushedAuthorizationRefusal(refusal)
        ledger.note("act   provider " + (refusal.map { "refuses every push (\($0))" } ?? "takes pushes again"))
    }

    /// The heal: the provider takes pushes again.
    func healPushedAuthorization() async {
        await simulator.setPushedAuthorizationRefusal(nil)
    }
}
