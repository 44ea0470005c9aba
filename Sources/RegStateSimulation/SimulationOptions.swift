import Foundation

/// What one simulated run is: its seed and its size, and (for a replay the shrinker shortened) which steps it skips
/// and which faults it turns off.
public struct SimulationOptions: Sendable, Equatable {
    /// The seed every choice of the run derives from.
    public var seed: UInt64
    /// User and world actions before the heal.
    public var steps: Int
    /// Engine instances sharing the store (an app and its extensions).
    public var processes: Int
    /// The kind of world; `nil`: drawn from the seed.
    public var world: SimulationWorld?
    /// Steps whose action is drawn (so every later draw stays the same) but not performed.
    public var skippedSteps: Set<Int> = []
    /// Fault kinds drawn but not applied (names in ``SimulationFault``).
    public var disabledFaults: Set<SimulationFault> = []
    /// Test-only: an invariant that fails on purpose, to show that the shrinker shortens a failing run.
    public var injectedFailure: InjectedFailure?

    /// A run of `steps` actions over `processes` instances, driven by `seed`.
    /// What the processes keep their store and journals on: the real file code over a simulated file system, or
    /// the model of the store contract.
    public var storage: SimulatedStorageKind

    /// The world the run lives in: ``world``, or the one its seed draws.
    public var resolvedWorld: SimulationWorld { world ?? .drawn(for: seed) }

    /// A run of `steps` actions over `processes` instances, driven by `seed`, on `storage`.
    public init(seed: UInt64, steps: Int = 40, processes: Int = 2, world: SimulationWorld? = nil,
                storage: SimulatedStorageKind = .files) {
        self.seed = seed
        self.steps = steps
        self.processes = processes
        self.world = world
        self.storage = storage
    }
}

/// Who renews the session in a run, and how its tokens are sent.
public enum SimulationWorld: String, Sendable, Equatable, CaseIterable {
    /// RegState renews itself; bearer tokens (the provider offers no DPoP).
    case plain
    /// RegState renews itself; the provider offers (or requires) DPoP, with or without nonces, and the app's API
    /// calls go through ``RegState/AuthorizedTransport`` with proofs.
    case dpop
    /// RegState renews itself; the provider offers or requires pushed authorization requests (RFC 9126) and now and
    /// then refuses every push. Not drawn for a seed (so every recorded seed keeps its world): `--world par`.
    case pushedAuthorization = "par"
    /// The host app logs in and pushes ID tokens (`sessionSource = .host`); the API takes the backend
    /// security token.
    case host
    /// RegState renews itself with a 2 s launch budget, and the provider holds half of its refresh answers (after
    /// acting on them) for longer than that. The budget's timer and the stalls run on the virtual clock, through the
    /// engine's clock seam. Not drawn for a seed (so every recorded seed keeps its world): `--world budget`.
    case launchBudget = "budget"
    /// A long life for the memory invariant: processes rarely end (a crash or launch draw lets event subscribers come
    /// and go instead), so one service lives for thousands of steps of renewals, logouts and registrations, and what it
    /// retains is counted every step. Not drawn for a seed: `--world memory --steps 3000`.
    case memory
    /// Every process appends to one shared journal file (as an app and its extensions may), with crashes in the
    /// middle of appends and compactions by whichever process crosses the threshold; the journal's own invariants
    /// are checked on the shared file (the per-process replay checks do not apply). Files only. Not drawn for a
    /// seed: `--world shared-journal`.
    case sharedJournal = "shared-journal"
    /// RegState renews itself; the backend's API rejects every token for the whole run, across launches and
    /// processes (``RejectionAudit``). Not drawn for a seed: `--world rejecting`.
    case rejectingBackend = "rejecting"
    /// RegState renews itself; every registration meets forged redirects before the genuine one, sometimes across
    /// a relaunch (``ForgeryAudit``). Not drawn for a seed: `--world forged`.
    case forgedRedirect = "forged"
    /// RegState renews itself; the last slot's process is built for another client of the same provider (an
    /// extension with a client ID of its own, an app update that changed it) and shares the store: it must never take
    /// the world client's session (`issuer-client-binding`). Not drawn for a seed: `--world another-client`.
    case anotherClient = "another-client"
    /// RegState renews itself; now and then, for a while, the provider's refresh answers carry an ID token naming
    /// another subject (OIDC Core 12.2: refused), while sign-ins stay honest (`refreshed-id-token`). Not drawn for a
    /// seed: `--world refreshed-id`.
    case refreshedIDToken = "refreshed-id"
    /// RegState renews itself with DPoP-bound tokens when the provider offers them; an app and its extensions wake at
    /// once: every callers action wakes every process, so their renewals of one expired token race for the store's
    /// lock, and the loser must use the token the winner stored (`needless-renewal`); and they call the API while
    /// one of them registers, whose new key must never sign for the tokens it replaces (`dpop-proof`). Not drawn for
    /// a seed: `--world together`.
    case together
    /// RegState renews itself; every registration is a sign-in on another device (RFC 8628): the user approves,
    /// denies or lets the code expire, after a while, with `slow_down`s on demand, while processes crash and relaunch
    /// in the middle (``DeviceAudit``). The polls wait on the engine's clock seam. Not drawn for a seed:
    /// `--world device`.
    case device
    /// RegState renews itself; the app's API demands a sign-in within 300 s (RFC 9470), so calls meet challenges as
    /// the clock moves, and the user steps up (as the session's user, or now and then as another), sometimes across a
    /// relaunch, and hands the step-up's redirect in again (``StepUpAudit``): `challenge-no-renewal`,
    /// `step-up-same-user`, `step-up-once`. Not drawn for a seed: `--world step-up`.
    case stepUp = "step-up"

    /// The world of `seed` when none is given: half plain, a quarter DPoP, a quarter host (from a stream of its own,
    /// so the actions every seed draws stay the same).
    static func drawn(for seed: UInt64) -> SimulationWorld {
        var random = SeededRandom(seed: seed ^ 0xD1B5_4A32_D192_ED03)
        return [.plain, .plain, .dpop, .host][random.below(4)]
    }
}

/// A kind of fault the shrinker can turn off for a whole run.
public enum SimulationFault: String, Sendable, Equatable, CaseIterable, Comparable {
    /// The device offline (the toggle and the drawn network fault).
    case offline
    /// A request that times out before it is delivered.
    case timeout
    /// An answer lost after the server acted.
    case answerLost = "answer-lost"
    /// A proxy's 503.
    case proxyError = "proxy-error"
    /// A proxy's 429.
    case tooManyRequests = "too-many-requests"
    /// A mangled 200 after the server acted.
    case malformed
    /// A 307 to an origin configured for nothing.
    case redirect
    /// Writes failing (full disk).
    case diskWrite = "disk-write"
    /// A process dying inside a write.
    case diskCrash = "disk-crash"
    /// The provider answering 500.
    case providerDown = "provider-down"
    /// The clock set back.
    case clockBack = "clock-back"

    /// The network fault this kind turns off, if it is one.
    var networkFault: NetworkFault? {
        switch self {
        case .offline: .offline
        case .timeout: .timeoutBeforeDelivery
        case .answerLost: .answerLost
        case .proxyError: .serverError
        case .tooManyRequests: .tooManyRequests
        case .malformed: .malformedAnswer
        case .redirect: .redirectElsewhere
        default: nil
        }
    }

    /// Orders by name (for a stable replay command).
    public static func < (lhs: SimulationFault, rhs: SimulationFault) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Test-only failing invariants (`--inject-failure NAME`), never on in CI's seeds.
public enum InjectedFailure: String, Sendable, Equatable, CaseIterable {
    /// Fails when a process crashes while the network is offline: it needs two actions, so a shrunk run keeps two.
    case crashWhileOffline = "crash-while-offline"
}

/// What a run found.
public struct SimulationResult: Sendable {
    /// The seed it ran.
    public var seed: UInt64
    /// Every invariant violation, in the order found; empty when the run passed.
    public var violations: [String]
    /// The full trace: actions, requests, faults, events, store writes (tokens only as fingerprints).
    public var trace: [String]
    /// Virtual seconds the run lived through: how far the world's clock moved forward, its jumps back not subtracted
    /// (a jump back is a wrong clock, not time given back), so never negative.
    public var virtualSeconds: Double
    /// Refresh grants the provider received.
    public var refreshGrants: Int

    /// Whether every invariant held.
    public var passed: Bool { violations.isEmpty }

    /// The invariants that failed (the name before the first colon of each violation).
    public var failedInvariants: Set<String> {
        Set(violations.map { String($0.prefix { $0 != ":" }) })
    }

    /// The step of the first violation in the trace (`nil` when none is traced).
    public var firstViolationStep: Int? {
        trace.first { $0.dropFirst(4).hasPrefix("VIOLATION") }.flatMap { Int($0.prefix(3)) }
    }

    /// A digest of the trace (FNV-1a over every line), to compare runs of one seed.
    public var digest: String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for line in trace { for byte in line.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }; hash = (hash ^ 10) &* 0x100_0000_01B3 }
        return String(hash, radix: 16)
    }
}
