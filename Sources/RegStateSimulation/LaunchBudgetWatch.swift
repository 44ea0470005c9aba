import Foundation
import RegState

/// The launch-budget world's referee: the provider stalls some refresh grants (after acting on them) for longer than
/// the engine's launch budget, on the virtual clock. It draws the stalls, knows which process is launching since when,
/// and reports the first of the world's invariants itself, the moment a stall ends:
/// - `launch-budget`: a launch whose renewal stalls past the budget has settled by then (its first lettered event came
///   within the budget, offline), rather than still waiting when the stalled answer comes.
///
/// The run checks the others (``SimulationRun/checkLateRenewals()``) from what this records: a late answer delivered
/// to a live process whose launch settled without it.
final class LaunchBudgetWatch: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`; `clock` and `ledger` are Sendable.
    /// The engine's launch budget in this world.
    static let budget: TimeInterval = 2
    /// Virtual seconds other requests may move the shared clock while a launch waits (each up to 0.8 s).
    static let slack: TimeInterval = 8

    let clock: SimulationClock
    private let ledger: Ledger
    private let lock = NSLock()
    private var random: SeededRandom
    private var launchingSince: [Int: Date] = [:]
    private var stalled: [Int: Int] = [:]
    /// Incarnation → the journal sequence its launch settled at, for a launch that settled while its renewal stalled.
    private var settledWithout: [Int: Int] = [:]
    /// Incarnation → the access token of the late answer it got (kept in memory only, never traced).
    private var lateDelivered: [Int: String] = [:]

    init(clock: SimulationClock, random: SeededRandom, ledger: Ledger) {
        self.clock = clock
        self.random = random
        self.ledger = ledger
    }

    func launchBegan(_ incarnation: Int) { lock.withLock { launchingSince[incarnation] = clock.now() } }

    /// The launch returned; `sequence` is the last journal entry it left. Answers whether its renewal still stalls.
    @discardableResult
    func launchSettled(_ incarnation: Int, sequence: Int?) -> Bool {
        lock.withLock {
            launchingSince[incarnation] = nil
            guard stalled[incarnation, default: 0] > 0 else { return false }
            settledWithout[incarnation] = sequence ?? 0
            return true
        }
    }

    /// How long to hold the answer to `request` of `process` (a refresh grant, half of them), or `nil`.
    func stall(for isGrant: Bool) -> TimeInterval? {
        guard isGrant else { return nil }
        return lock.withLock {
            // Longer than the budget and its slack, shorter than a store lock's 30 s wait (a renewal holds the lock
            // across its grant, and a stall past that is a provider the engine has given up on).
            random.chance(50) ? Self.budget + Self.slack + 1 + Double(random.below(17)) : nil
        }
    }

    /// Holds the answer of `process` for `seconds` of virtual time, then checks the launch-budget invariant. Answers
    /// whether the answer held is its launch's renewal (the process was launching when it was held), the one answer
    /// ``answered(_:accessToken:)`` must be told of.
    func hold(_ seconds: TimeInterval, process: Int, label: String) async -> Bool {
        let duringLaunch = lock.withLock { () -> Bool in
            stalled[process, default: 0] += 1
            return launchingSince[process] != nil
        }
        ledger.note("net   \(label) stalls \(Int(seconds)) s (after the provider acted)")
        await clock.sleep(for: seconds)
        let since = lock.withLock { () -> Date? in
            stalled[process, default: 1] -= 1
            return launchingSince[process]
        }
        if let since, clock.now().timeIntervalSince(since) > Self.budget + Self.slack {
            ledger.violation("launch-budget", "p\(process)'s launch was still waiting \(Int(clock.now().timeIntervalSince(since))) s "
                             + "after it began, when its stalled renewal answered (budget \(Int(Self.budget)) s)")
        }
        return duringLaunch
    }

    /// The stalled answer to the launch renewal of `process` came back (``hold(_:process:label:)`` said so):
    /// `accessToken` is the new access token when the answer brought tokens to the process alive, `nil` when it did
    /// not (a refusal, an answer lost, a dead process, an ID token the engine must refuse). Only that answer is the
    /// late one: an answer without tokens ends the watch on the launch, so that a later grant of the same process
    /// (a rejection's renewal, after a clear-state and a new registration: seed 10800003648) never takes its place.
    func answered(_ process: Int, accessToken: String?) {
        lock.withLock {
            guard settledWithout[process] != nil else { return }
            if let accessToken { lateDelivered[process] = accessToken } else { settledWithout[process] = nil }
        }
    }

    /// A clear-state began in `incarnation`: it ends the session a late answer would renew, and it empties the
    /// journal and restarts its numbering, so the sequence the launch settled at orders nothing any more (the check
    /// cannot see that clear-state in the journal, as it sees a logout). Its launch's late answer is not checked.
    func cleared(_ incarnation: Int) {
        lock.withLock {
            settledWithout[incarnation] = nil
            lateDelivered[incarnation] = nil
        }
    }

    /// Takes the late answers delivered since the last call: the incarnation, the journal sequence its launch settled
    /// at, and the access token the answer carried.
    func takeLateDeliveries() -> [(incarnation: Int, settledAt: Int, accessToken: String)] {
        lock.withLock {
            let taken = lateDelivered.sorted { $0.key < $1.key }.compactMap { incarnation, token in
                settledWithout[incarnation].map { (incarnation, $0, token) }
            }
            for (incarnation, _, _) in taken { settledWithout[incarnation] = nil }
            lateDelivered = [:]
            return taken
        }
    }
}
