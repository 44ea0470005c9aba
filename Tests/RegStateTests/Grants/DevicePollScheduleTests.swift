import Foundation
import Testing
@testable import RegState

/// The polling schedule of RFC 8628 §3.5 as a table over the pure functions of the stored record: when a poll may
/// go, what `slow_down` and a transient failure do to the next one, and that nothing polls once the code expired.
@Suite("Device authorization: the polling schedule")
struct DevicePollScheduleTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func record(interval: TimeInterval = 5, lifetime: TimeInterval = 60) -> PendingDeviceAuthorization {
        PendingDeviceAuthorization(
            deviceCode: "device-code", verification: DeviceVerification(
                userCode: "BCDF-GHJK", verificationURI: URL(fileURLWithPath: "/activate"), verificationURIComplete: nil,
                expiresAt: start.addingTimeInterval(lifetime), interval: interval),
            issuer: "https://issuer.example", clientID: "client", createdAt: start, notBefore: start)
    }

    enum Step: Sendable {
        case poll(at: TimeInterval)
        case slowDown(at: TimeInterval)
        case transient(at: TimeInterval)
        case answered(at: TimeInterval)
    }

    @Test("Given a history, then the next step at a given second", arguments: [
        // The first poll goes at once.
        ([], 0.0, PendingDeviceAuthorization.PollStep.poll),
        // Then one interval later, not sooner.
        ([Step.poll(at: 0)], 4.0, .wait(1)),
        ([Step.poll(at: 0)], 5.0, .poll),
        // Counted from the answer when it came later than the departure.
        ([Step.poll(at: 0), .answered(at: 2)], 5.0, .wait(2)),
        // slow_down: five seconds more for that poll and every later one.
        ([Step.poll(at: 0), .slowDown(at: 0)], 5.0, .wait(5)),
        ([Step.poll(at: 0), .slowDown(at: 0), .poll(at: 10)], 14.0, .wait(6)),
        ([Step.poll(at: 0), .slowDown(at: 0), .poll(at: 10), .slowDown(at: 10)], 20.0, .wait(5)),
        // A transient failure backs off (10 s, then 20 s, then 40 s), never past a minute.
        ([Step.poll(at: 0), .transient(at: 0)], 5.0, .wait(5)),
        ([Step.poll(at: 0), .transient(at: 0), .poll(at: 10), .transient(at: 10)], 20.0, .wait(10)),
        ([Step.poll(at: 0), .transient(at: 0), .poll(at: 10), .transient(at: 10), .poll(at: 30), .answered(at: 30)],
         35.0, .poll),
        // The wait never runs past the expiry, and at the expiry nothing polls.
        ([Step.poll(at: 58)], 59.0, .wait(1)),
        ([Step.poll(at: 0)], 60.0, .expired),
        ([], 61.0, .expired),
        // A millisecond early: the stored expiry may read back a rounding later than the provider's (seed 939).
        ([], 59.9995, .expired),
    ])
    func nextStep(history: [Step], at second: TimeInterval, expected: PendingDeviceAuthorization.PollStep) {
        var record = Self.record()
        for step in history {
            switch step {
            case .poll(let at): record.reservePoll(at: Self.start.addingTimeInterval(at), by: "me")
            case .slowDown(let at): record.slowDown(at: Self.start.addingTimeInterval(at))
            case .transient(let at): record.transientFailure(at: Self.start.addingTimeInterval(at))
            case .answered(let at): record.answered(at: Self.start.addingTimeInterval(at))
            }
        }
        #expect(record.nextStep(at: Self.start.addingTimeInterval(second), for: "me") == expected)
    }

    @Test("Given another process polls, then this one waits for its lease, takes over and waits one interval more")
    func leaseAndTakeOver() {
        var record = Self.record()
        #expect(record.nextStep(at: Self.start, for: "me") == .poll)
        // Before anyone polled, a process claims and polls at once.
        record.claim(at: Self.start, by: "me")
        #expect(record.nextStep(at: Self.start, for: "me") == .poll)
        record.reservePoll(at: Self.start, by: "other")
        // The other's lease lasts one interval past its next poll (at 5 s): until 10 s.
        #expect(record.nextStep(at: Self.start.addingTimeInterval(5), for: "me") == .wait(5))
        #expect(record.nextStep(at: Self.start.addingTimeInterval(10), for: "me") == .takeOver)
        record.claim(at: Self.start.addingTimeInterval(10), by: "me")
        #expect(record.nextStep(at: Self.start.addingTimeInterval(12), for: "me") == .wait(3))
        #expect(record.nextStep(at: Self.start.addingTimeInterval(15), for: "me") == .poll)
        #expect(record.nextStep(at: Self.start.addingTimeInterval(15), for: "other") == .wait(5))
    }

    @Test("Given a transient run, then the backoff doubles from the interval and stops at a minute")
    func backoffBound() {
        var record = Self.record(lifetime: 3600)
        var waits: [TimeInterval] = []
        var now = Self.start
        for _ in 0..<6 {
            record.reservePoll(at: now, by: "me")
            record.transientFailure(at: now)
            waits.append(record.notBefore.timeIntervalSince(now))
            now = record.notBefore
        }
        #expect(waits == [10, 20, 40, 60, 60, 60])
    }

    @Test("Given two copies of one authorization, then the merge keeps the longer interval and the later next poll")
    func mergeNeverPollsSooner() {
        var slowed = Self.record()
        slowed.reservePoll(at: Self.start, by: "me")
        slowed.slowDown(at: Self.start)
        var stale = Self.record()
        stale.reservePoll(at: Self.start, by: "me")
        let merged = stale.merged(with: slowed)
        #expect(merged.verification.interval == 10)
        #expect(merged.notBefore == Self.start.addingTimeInterval(10))
        var other = Self.record()
        other.deviceCode = "another"
        #expect(stale.merged(with: other) == stale)
    }
}
