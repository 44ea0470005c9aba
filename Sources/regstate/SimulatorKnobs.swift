import Foundation
import RegStateSimulator

/// The simulator's knobs as the command line sets them; `nil` keeps the simulator's default.
struct SimulatorKnobs: Sendable, Equatable {
    /// `--sim-access-ttl SECONDS`.
    var accessTokenLifetime: TimeInterval?
    /// `--sim-refresh-ttl SECONDS`.
    var refreshTokenLifetime: TimeInterval?
    /// `--sim-offline`.
    var offline = false
    /// `--sim-deny-refresh`.
    var denyRefresh = false
    /// `--sim-max-devices N`.
    var maxDevices: Int?
    /// `--sim-reuse-grace SECONDS`.
    var reuseGrace: TimeInterval?

    /// `--sim-dpop off|allowed|required`.
    var dpop: SimulatorDPoPMode?
    /// `--sim-dpop-nonce`: DPoP proofs must carry the simulator's nonce.
    var dpopNonce = false

    /// Whether any knob was set.
    var isEmpty: Bool { self == SimulatorKnobs() }
}
