import Foundation

/// When a token kind may be renewed again after a transient failure: a pure value (stored hold, time, random draw,
/// `Retry-After` in; decision out), tested by table; the store keeps the hold (a ``RejectionHold``) for every process.
/// Why gRPC's backoff, and a 300 s cap: docs/Scale.md.
package struct RenewalHoldPolicy: Sendable, Equatable {
    /// The first backoff (gRPC's `INITIAL_BACKOFF`).
    package static let initialBackoff: TimeInterval = 1
    /// The growth per failure (gRPC's `MULTIPLIER`).
    package static let multiplier = 1.6
    /// The longest backoff (gRPC's `MAX_BACKOFF` is 120 s; docs/Scale.md says why 300).
    package static let maximumBackoff: TimeInterval = 300
    /// The jitter band: each delay is the backoff × (1 ± this) (gRPC's `JITTER`).
    package static let jitter = 0.2

    /// Whether transient failures hold renewals at all (off: the fleet simulation's baseline).
    package var holdsTransientFailures: Bool
    /// Whether each delay is jittered (off: every install that failed together retries together; a mutation).
    package var jitters: Bool
    /// Whether a server's `Retry-After` lengthens the hold.
    package var honoursRetryAfter: Bool
    /// Whether the point a valid token is renewed ahead of its expiry is drawn per token (off: at the start of the
    /// grace window, for every install alike).
    package var spreadsRenewals = true

    /// The policy RegState runs with.
    package static let standard = RenewalHoldPolicy(holdsTransientFailures: true, jitters: true, honoursRetryAfter: true,
                                                    spreadsRenewals: true)
    /// No holds, no `Retry-After`, no spread: the fleet simulation's baseline (RegState before them).
    package static let off = RenewalHoldPolicy(holdsTransientFailures: false, jitters: false, honoursRetryAfter: false,
                                               spreadsRenewals: false)

    /// How long before `expiresAt` a valid token is renewed: `grace × (1 − 0.9 d)` for a draw `d` in `0..<1` that is a
    /// pure function of the token's expiry and the session, so every process of the install renews at the same point
    /// while a fleet issued in the same second spreads over 90 % of the grace window.
    package func renewalLead(grace: TimeInterval, sessionID: String?, expiresAt: Date) -> TimeInterval {
        guard spreadsRenewals, grace > 0 else { return grace }
        return grace * (1 - 0.9 * Self.spreadDraw(sessionID: sessionID, expiresAt: expiresAt))
    }

    /// A draw in `0..<1` for ``afterTransientFailure(_:retryAfter:at:random:)``'s jitter, from `crypto`'s random
    /// bytes (the simulation's are seeded); the middle of the band when none can be had.
    package static func randomFraction(from crypto: any CryptoProvider) -> Double {
        guard let bytes = try? crypto.randomBytes(count: 8), bytes.count == 8 else { return 0.5 }
        let value = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Double(value >> 11) / Double(UInt64(1) << 53)
    }

    /// The draw of ``renewalLead(grace:sessionID:expiresAt:)``: FNV-1a over the session identifier and the expiry in
    /// milliseconds, finished by a SplitMix64 step, as a number in `0..<1`. Stable across processes and launches
    /// (Swift's `hashValue` is seeded per process, so it is not used).
    package static func spreadDraw(sessionID: String?, expiresAt: Date) -> Double {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        for byte in (sessionID ?? "").utf8 { mix(byte) }
        let millis = UInt64(bitPattern: Int64((expiresAt.timeIntervalSince1970 * 1000).rounded()))
        for shift in stride(from: 0, to: 64, by: 8) { mix(UInt8(truncatingIfNeeded: millis >> UInt64(shift))) }
        var z = hash &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(UInt64(1) << 53)
    }

    /// What a call that needs a renewal does.
    package enum Decision: Sendable, Equatable {
        /// Send the grant.
        case attempt
        /// Send the grant, cutting the hold short (the caller remembers when, the `lastCut` of the next decision).
        case cutShort
        /// Send nothing: answer with the recoverable **E** (offline, the session kept) until then.
        case held(until: Date)
    }

    /// The decision at `now` for a stored transient hold `hold`; `cutShort`: the user or the host asks for an attempt
    /// now, granted once per backoff step since `lastCut` (this process's last cut), however often it asks.
    package func decide(_ hold: RejectionHold?, at now: Date, cutShort: Bool = false, lastCut: Date? = nil)
        -> Decision
    {
        guard holdsTransientFailures, let hold, isHolding(hold, at: now) else { return .attempt }
        if cutShort, lastCut.map({ now.timeIntervalSince($0) >= hold.backoff }) ?? true { return .cutShort }
        return .held(until: hold.until)
    }

    /// Whether `hold` holds at `now`: it has not ended, and it is not from the future (its end no further from now
    /// than its own length).
    package func isHolding(_ hold: RejectionHold, at now: Date) -> Bool {
        let left = hold.until.timeIntervalSince(now)
        return left > 0 && left <= hold.backoff * (1 + Self.jitter)
    }

    /// The hold after a transient failure at `now`, following `previous` (the stored one, `nil` after a success);
    /// `retryAfter`: the server's wait, when it sent one (already capped); `random`: a draw in `0..<1` for the
    /// jitter. `nil` when the policy holds nothing.
    package func afterTransientFailure(_ previous: RejectionHold?, retryAfter: TimeInterval?, at now: Date,
                                       random: Double) -> RejectionHold? {
        guard holdsTransientFailures else { return nil }
        let nominal = previous.map { min($0.backoff * Self.multiplier, Self.maximumBackoff) } ?? Self.initialBackoff
        let factor = jitters ? 1 + Self.jitter * (2 * min(max(random, 0), 1) - 1) : 1
        var backoff = nominal
        var delay = nominal * factor
        if honoursRetryAfter, let retryAfter, retryAfter > delay {
            // The server's wait is the hold; the chain goes on from it (capped by the growth above at the next step).
            backoff = retryAfter
            delay = retryAfter
        }
        return RejectionHold(until: now.addingTimeInterval(delay), backoff: backoff)
    }
}
