import Foundation
import Testing
@testable import RegState

/// The hold policy by table: a stored hold, the time and a draw in; a decision or the next hold out.
@Suite("Renewal hold policy: gRPC backoff with ±20 % jitter, Retry-After, cut short once, no hold from the future")
struct RenewalHoldPolicyTests {
    static let t0 = Date(timeIntervalSince1970: 1_000_000)
    static func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }
    static func hold(until: TimeInterval, backoff: TimeInterval) -> RejectionHold {
        RejectionHold(until: at(until), backoff: backoff)
    }

    struct DecideRow: Sendable, CustomTestStringConvertible {
        var name: String
        var policy: RenewalHoldPolicy = .standard
        var hold: RejectionHold?
        var now: TimeInterval
        var cutShort = false
        var lastCut: TimeInterval?
        var then: RenewalHoldPolicy.Decision
        var testDescription: String { name }
    }

    static let decideRows: [DecideRow] = [
        DecideRow(name: "no hold: attempt", hold: nil, now: 0, then: .attempt),
        DecideRow(name: "inside the hold: held until its end", hold: hold(until: 10, backoff: 9), now: 5,
                  then: .held(until: at(10))),
        DecideRow(name: "at its end: attempt", hold: hold(until: 10, backoff: 9), now: 10, then: .attempt),
        DecideRow(name: "after its end: attempt", hold: hold(until: 10, backoff: 9), now: 11, then: .attempt),
        DecideRow(name: "jitter above the backoff is still a hold (9 s × 1.2)", hold: hold(until: 10.8, backoff: 9),
                  now: 0, then: .held(until: at(10.8))),
        DecideRow(name: "a hold from the future (end further than its length × 1.2) is void", hold: hold(until: 3_600, backoff: 120),
                  now: 0, then: .attempt),
        DecideRow(name: "the user's action cuts a hold short", hold: hold(until: 60, backoff: 60), now: 1,
                  cutShort: true, then: .cutShort),
        DecideRow(name: "cut again within the hold's length: held (tapping retry is no burst)",
                  hold: hold(until: 50, backoff: 48), now: 2, cutShort: true, lastCut: 1, then: .held(until: at(50))),
        DecideRow(name: "cut again a hold's length after the last cut: one more attempt",
                  hold: hold(until: 200, backoff: 96), now: 100, cutShort: true, lastCut: 1, then: .cutShort),
        DecideRow(name: "policy off: never held", policy: .off, hold: hold(until: 60, backoff: 60), now: 1, then: .attempt),
    ]

    @Test("decide", arguments: decideRows)
    func decide(_ row: DecideRow) {
        #expect(row.policy.decide(row.hold, at: Self.at(row.now), cutShort: row.cutShort,
                                  lastCut: row.lastCut.map(Self.at)) == row.then)
    }

    struct FailureRow: Sendable, CustomTestStringConvertible {
        var name: String
        var policy: RenewalHoldPolicy = .standard
        var previous: RejectionHold?
        var retryAfter: TimeInterval?
        var random: Double
        /// The hold's end, seconds after now (0), and its length; `nil`: no hold.
        var then: (until: TimeInterval, backoff: TimeInterval)?
        var testDescription: String { name }
    }

    static let failureRows: [FailureRow] = [
        FailureRow(name: "first failure: 1 s, no jitter at the middle draw", previous: nil, random: 0.5, then: (1, 1)),
        FailureRow(name: "first failure, lowest draw: 0.8 s", previous: nil, random: 0, then: (0.8, 1)),
        FailureRow(name: "first failure, highest draw: 1.2 s", previous: nil, random: 1, then: (1.2, 1)),
        FailureRow(name: "second failure: × 1.6", previous: hold(until: -1, backoff: 1), random: 0.5, then: (1.6, 1.6)),
        FailureRow(name: "grows to 300 s and stays", previous: hold(until: -1, backoff: 250), random: 0.5, then: (300, 300)),
        FailureRow(name: "at the cap, jittered ±20 %", previous: hold(until: -1, backoff: 300), random: 0, then: (240, 300)),
        FailureRow(name: "Retry-After longer than the step: the server's wait", previous: nil, retryAfter: 30,
                   random: 0.5, then: (30, 30)),
        FailureRow(name: "Retry-After shorter than the step: the step", previous: hold(until: -1, backoff: 100),
                   retryAfter: 5, random: 0.5, then: (160, 160)),
        FailureRow(name: "after an hour's Retry-After, the chain goes on at the cap", previous: hold(until: -1, backoff: 3_600),
                   random: 0.5, then: (300, 300)),
        FailureRow(name: "no jitter (mutation's policy): exactly the step",
                   policy: RenewalHoldPolicy(holdsTransientFailures: true, jitters: false, honoursRetryAfter: true),
                   previous: nil, random: 0, then: (1, 1)),
        FailureRow(name: "Retry-After not honoured: the step",
                   policy: RenewalHoldPolicy(holdsTransientFailures: true, jitters: true, honoursRetryAfter: false),
                   previous: nil, retryAfter: 30, random: 0.5, then: (1, 1)),
        FailureRow(name: "policy off: no hold", policy: .off, previous: nil, retryAfter: 30, random: 0.5, then: nil),
    ]

    @Test("after a transient failure", arguments: failureRows)
    func afterFailure(_ row: FailureRow) {
        let next = row.policy.afterTransientFailure(row.previous, retryAfter: row.retryAfter, at: Self.t0,
                                                    random: row.random)
        if let then = row.then {
            #expect(abs((next?.until.timeIntervalSince(Self.t0) ?? -1) - then.until) < 1e-6)
            #expect(abs((next?.backoff ?? -1) - then.backoff) < 1e-6)
        } else {
            #expect(next == nil)
        }
    }

    @Test("a chain of failures: every gap within ±20 % of 1 s × 1.6^n capped at 300 s, and a fresh hold always holds")
    func chain() {
        var hold: RejectionHold?
        var now = Self.t0
        var draws = [0.0, 1.0, 0.3, 0.9, 0.5, 0.1, 0.7, 0.2, 0.8, 0.4, 0.6, 0.05, 0.95, 0.5, 0.5]
        for step in 0..<draws.count {
            let next = RenewalHoldPolicy.standard.afterTransientFailure(hold, retryAfter: nil, at: now,
                                                                        random: draws.removeFirst())
            guard let next else { Issue.record("no hold"); return }
            let nominal = min(pow(1.6, Double(step)), 300)
            let gap = next.until.timeIntervalSince(now)
            #expect(gap >= nominal * 0.8 - 1e-6 && gap <= nominal * 1.2 + 1e-6, "step \(step): \(gap)")
            #expect(RenewalHoldPolicy.standard.decide(next, at: now) == .held(until: next.until))
            now = next.until
            hold = next
        }
    }
}

/// The renewal spread: where inside the grace window a valid token is renewed, drawn per token and install.
@Suite("Renewal spread: a point drawn per token inside the grace window")
struct RenewalSpreadTests {
    @Test("the lead is within the grace window (a tenth of it always left), stable for a token, the whole grace when off")
    func leadBounds() {
        let expiry = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<200 {
            let lead = RenewalHoldPolicy.standard.renewalLead(grace: 600, sessionID: "session-\(index)", expiresAt: expiry)
            #expect(lead > 60 && lead <= 600)
            #expect(lead == RenewalHoldPolicy.standard.renewalLead(grace: 600, sessionID: "session-\(index)", expiresAt: expiry))
        }
        #expect(RenewalHoldPolicy.off.renewalLead(grace: 600, sessionID: "s", expiresAt: expiry) == 600)
        #expect(RenewalHoldPolicy.standard.renewalLead(grace: 0, sessionID: "s", expiresAt: expiry) == 0)
    }

    @Test("a fleet whose tokens expire in the same second renews spread over the window: every tenth of it gets 5–15 %")
    func fleetSpread() {
        let expiry = Date(timeIntervalSince1970: 1_800_000_000)
        var buckets = [Int](repeating: 0, count: 10)
        for index in 0..<10_000 {
            let draw = RenewalHoldPolicy.spreadDraw(sessionID: "install-\(index)", expiresAt: expiry)
            buckets[min(9, Int(draw * 10))] += 1
        }
        #expect(buckets.allSatisfy { $0 > 500 && $0 < 1_500 }, "\(buckets)")
        // The next generation of one install draws anew (its expiry changed).
        let first = RenewalHoldPolicy.spreadDraw(sessionID: "install-1", expiresAt: expiry)
        let next = RenewalHoldPolicy.spreadDraw(sessionID: "install-1", expiresAt: expiry.addingTimeInterval(3_600))
        #expect(first != next)
    }
}
