import Foundation

/// One install's attempts as the provider saw them, and the backoff check on them: after a failure, the next attempt
/// may come no sooner than the shortest hold the policy could have drawn (80 % of the nominal step, at least the
/// `Retry-After` sent), the nominal step growing from the shortest hold the policy could have stored.
struct FleetInstallLedger: Sendable {
    /// The last failed attempt of the current chain (none after a success).
    private(set) var lastFailure: TimeInterval?
    /// The shortest gap the policy allows before the next attempt.
    private var shortestGap: TimeInterval = 0
    /// The smallest nominal step of the next failure.
    private var nominal: TimeInterval = 1
    /// Attempts sooner than the backoff allows.
    private(set) var earlyAttempts = 0
    /// The largest shortfall of an early attempt, seconds.
    private(set) var worstShortfall: TimeInterval = 0
    /// Failed attempts.
    private(set) var failures = 0
    /// When the install first renewed after the provider was back (only for an install whose chain spanned it).
    private(set) var backAt: TimeInterval?
    /// Whether the install's chain of failures was open when the provider came back.
    private(set) var waitedOutOutage = false

    mutating func failed(at time: TimeInterval, retryAfter: TimeInterval?) {
        checkGap(at: time)
        failures += 1
        shortestGap = max(0.8 * nominal, retryAfter ?? 0)
        let stored = retryAfter.map { max(min(nominal, $0), 0.8 * nominal) } ?? nominal
        nominal = min(stored * 1.6, 300)
        lastFailure = time
    }

    mutating func succeeded(at time: TimeInterval, recovery: TimeInterval) {
        checkGap(at: time)
        if let lastFailure, lastFailure < recovery, time >= recovery, backAt == nil {
            waitedOutOutage = true
            backAt = time
        }
        lastFailure = nil
        nominal = 1
        shortestGap = 0
    }

    private mutating func checkGap(at time: TimeInterval) {
        guard let lastFailure else { return }
        let gap = time - lastFailure
        if gap < shortestGap - 1e-6 {
            earlyAttempts += 1
            worstShortfall = max(worstShortfall, shortestGap - gap)
        }
    }
}
