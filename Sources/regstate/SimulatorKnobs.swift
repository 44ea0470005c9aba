import Foundation
import RegState
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
    /// `--sim-answer-delay SECONDS`.
    var answerDelay: TimeInterval?
    /// `--sim-advance SECONDS`: this run's clock (the engine's and the simulator's alike) is the wall clock plus this
    /// many seconds, so a test can let a token expire without sleeping or issuing one shorter than the grace.
    var advance: TimeInterval?
    /// `--sim-time EPOCH_SECONDS`: this run's clock stands still at this instant (plus ``advance``), so tests can
    /// place runs at exact distances from each other however slow the machine is.
    var fixedTime: Date?

    /// The clock of this run: the wall clock, or ``fixedTime``; either moved by ``advance``.
    var clock: any RegStateClock {
        if let fixedTime { return FixedClock(instant: fixedTime.addingTimeInterval(advance ?? 0)) }
        if let advance { return AdvancedClock(offset: advance) }
        return SystemClock()
    }

    /// `--sim-api-rejects`: the backend API answers 401 to every token.
    var apiRejects = false
    /// `--sim-api-max-age SECONDS`, `--sim-api-acr "A B"`: the backend API demands a sign-in within that many seconds
    /// or of one of those classes (RFC 9470); `call` then sends the provider's access token, whose sign-in it checks.
    var apiDemand = AuthenticationRequirement()
    /// `--sim-step-up honours|ignores|omits-auth-time`: how the simulated provider treats `max_age` and `acr_values`.
    var stepUp: SimulatorStepUp?
    /// `--sim-api-forces-logout`: the backend API answers `403 FORCED_LOGOUT`.
    var apiForcesLogout = false
    /// `--sim-dpop off|allowed|required`.
    var dpop: SimulatorDPoPMode?
    /// `--sim-dpop-nonce`: DPoP proofs must carry the simulator's nonce.
    var dpopNonce = false
    /// `--sim-keychain`: the secrets in RegStateTesting's `KeychainDouble` (one item each in `DIR/keychain`, as the
    /// Keychain keeps them) behind the App Group lock `DIR/.lock`, as `RegStateDependencies.sharedSession` pairs them
    /// on Apple platforms, instead of a `FileSecureStore` in `DIR/secure`.
    var keychain = false
    /// `--sim-par off|offered|required`: pushed authorization requests at the simulated provider.
    var pushedAuthorization: SimulatorPushedAuthorization?
    /// `--sim-par-ttl SECONDS`: how long a pushed `request_uri` lives.
    var pushedRequestLifetime: TimeInterval?

    /// Whether any knob was set.
    var isEmpty: Bool { self == SimulatorKnobs() }
}

/// The wall clock moved by a fixed offset: `--sim-advance` for one run.
struct AdvancedClock: RegStateClock {
    /// Seconds added to the wall clock.
    let offset: TimeInterval

    func now() -> Date { Date().addingTimeInterval(offset) }
}

/// A clock that stands still: `--sim-time` for one run.
struct FixedClock: RegStateClock {
    /// The instant it always reads.
    let instant: Date

    func now() -> Date { instant }
}
