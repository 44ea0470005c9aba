import Foundation
import Testing
@testable import RegState

/// The flight machine by table: each row is a sequence of calls and what each returns, given/when/then, for both
/// token kinds. Waiters are numbers here (continuations in the shell).
@Suite("The flight machine")
struct FlightMachineTests {
    typealias Machine = FlightMachine<Int>

    static let renewed = AccessCredential(token: "token-c", carrier: .securityToken)
    static let offline = RegStateServiceError.offline(.noInternet)

    /// One call and what it must return.
    enum Step: CustomStringConvertible {
        /// A caller for `token` at `at` seconds is admitted as expected.
        case admit(TokenCarrier, String?, at: TimeInterval, Machine.Admission)
        /// Waiter `id` waits: `nil` it is kept; otherwise the answer it gets at once.
        case wait(TokenCarrier, Int, RenewalAnswer?)
        /// The renewal lands with `answer` (of flight `generation`, `nil`: whichever runs): these waiters are answered.
        case land(TokenCarrier, RenewalAnswer, generation: Int?, at: TimeInterval, [Int])
        /// Waiter `id` is cancelled: whether it was still waiting.
        case cancel(TokenCarrier, Int, Bool)
        /// The session ends: these waiters fail.
        case sessionEnded([Int])
        /// The user's retry asks to cut `hold` short at `at`: whether it may.
        case cutShort(TokenCarrier, RejectionHold?, at: TimeInterval, Bool)
        /// A rejection of `token` is noted.
        case rejected(String)
        /// Whether a renewal of `token` is for a rejection.
        case isRejected(String?, Bool)

        var description: String {
            switch self {
            case .admit(let kind, let token, let at, let admission): "admit(\(kind), \(token ?? "nil"), \(at)) = \(admission)"
            case .wait(let kind, let id, _): "wait(\(kind), \(id))"
            case .land(let kind, _, let generation, let at, let waiters): "land(\(kind), \(generation ?? 0), \(at)) = \(waiters)"
            case .cancel(let kind, let id, let kept): "cancel(\(kind), \(id)) = \(kept)"
            case .sessionEnded(let waiters): "sessionEnded = \(waiters)"
            case .cutShort(let kind, _, let at, let may): "cutShort(\(kind), \(at)) = \(may)"
            case .rejected(let token): "rejected(\(token))"
            case .isRejected(let token, let rejected): "isRejected(\(token ?? "nil")) = \(rejected)"
            }
        }
    }

    struct Row: CustomStringConvertible, Sendable {
        let name: String
        let steps: @Sendable () -> [Step]
        var description: String { name }
    }

    static let epoch = Date(timeIntervalSince1970: 1_000_000)
    static let stored = RejectionHold(until: epoch.addingTimeInterval(110), backoff: 100)

    static let rows: [Row] = [
        Row(name: "given idle, when two callers ask, then the first starts and the second joins; both are answered") {
            [.admit(.accessToken, "a", at: 0, .start(generation: 1)), .wait(.accessToken, 1, nil),
             .admit(.accessToken, "a", at: 0, .join), .wait(.accessToken, 2, nil),
             .land(.accessToken, .success(nil), generation: 1, at: 1, [1, 2]),
             .admit(.accessToken, "a", at: 2, .start(generation: 2))]
        },
        Row(name: "given a running renewal, when a caller saw another token, then it joins (one flight per kind)") {
            [.admit(.securityToken, "a", at: 0, .start(generation: 1)),
             .admit(.securityToken, "b", at: 0, .join),
             .admit(.accessToken, "x", at: 0, .start(generation: 2))]
        },
        Row(name: "given a landed renewal, when a caller waits after it, then it gets the answer it left") {
            [.admit(.securityToken, "a", at: 0, .start(generation: 1)),
             .land(.securityToken, .success(renewed), generation: 1, at: 1, []),
             .wait(.securityToken, 1, .success(renewed)),
             .admit(.securityToken, "a", at: 2, .start(generation: 2))]
        },
        Row(name: "given a failed security-token renewal, then its token's callers get the failure until its hold ends, which doubles") {
            [.admit(.securityToken, "a", at: 0, .start(generation: 1)),
             .land(.securityToken, .failure(offline), generation: 1, at: 0, []),
             .admit(.securityToken, "a", at: 29, .answer(.failure(offline))),
             .admit(.securityToken, "a", at: 31, .start(generation: 2)),
             .land(.securityToken, .failure(offline), generation: 2, at: 31, []),
             .admit(.securityToken, "a", at: 90, .answer(.failure(offline))),
             .admit(.securityToken, "a", at: 92, .start(generation: 3)),
             .land(.securityToken, .success(renewed), generation: 3, at: 92, []),
             .admit(.securityToken, "a", at: 93, .start(generation: 4))]
        },
        Row(name: "given a failure held, when the clock is set back a day, then the hold is its backoff from now, not a day") {
            [.admit(.securityToken, "a", at: 0, .start(generation: 1)),
             .land(.securityToken, .failure(offline), generation: 1, at: 0, []),
             .admit(.securityToken, "a", at: -86_400, .exhausted),
             .admit(.securityToken, "a", at: -86_400 + 31, .start(generation: 2))]
        },
        Row(name: "given a failure kept for its token's callers, when the clock is set back within the longest hold, then it answers no more: the backoff from now decides") {
            [.admit(.securityToken, "a", at: 0, .start(generation: 1)),
             .land(.securityToken, .failure(offline), generation: 1, at: 0, []),
             .admit(.securityToken, "a", at: 10, .answer(.failure(offline))),
             .admit(.securityToken, "a", at: -600, .exhausted),
             .admit(.securityToken, "a", at: -600 + 31, .start(generation: 2))]
        },
        Row(name: "given waiters, when one is cancelled, then only the others are answered") {
            [.admit(.securityToken, "a", at: 0, .start(generation: 1)), .wait(.securityToken, 1, nil),
             .wait(.securityToken, 2, nil), .cancel(.securityToken, 1, true), .cancel(.securityToken, 1, false),
             .land(.securityToken, .success(renewed), generation: 1, at: 1, [2])]
        },
        Row(name: "given waiters of both kinds, when the session ends, then every one fails and a late landing answers none") {
            [.admit(.accessToken, "a", at: 0, .start(generation: 1)), .wait(.accessToken, 1, nil),
             .admit(.securityToken, "s", at: 0, .start(generation: 2)), .wait(.securityToken, 2, nil),
             .sessionEnded([1, 2]),
             .admit(.accessToken, "a", at: 1, .start(generation: 3)), .wait(.accessToken, 3, nil),
             .land(.accessToken, .success(nil), generation: 1, at: 2, []),
             .land(.accessToken, .success(nil), generation: 3, at: 2, [3])]
        },
        Row(name: "given the host's answer, when it lands whichever flight runs, then its waiters get it") {
            [.admit(.securityToken, "a", at: 0, .start(generation: 1)), .wait(.securityToken, 7, nil),
             .land(.securityToken, .success(renewed), generation: nil, at: 1, [7])]
        },
        Row(name: "given a stored transient hold, when the user retries twice, then it is cut short once per backoff") {
            [.cutShort(.securityToken, stored, at: 0, true), .cutShort(.securityToken, stored, at: 1, false),
             .cutShort(.securityToken, stored, at: 101, true), .cutShort(.securityToken, nil, at: 102, false)]
        },
        Row(name: "given a cut, then the failure kept for the token's callers is forgotten and the next caller starts") {
            [.admit(.securityToken, "a", at: 0, .start(generation: 1)),
             .land(.securityToken, .failure(offline), generation: 1, at: 0, []),
             .cutShort(.securityToken, stored, at: 1, true),
             .admit(.securityToken, "a", at: 1, .start(generation: 2))]
        },
        Row(name: "given a running renewal, then no hold is cut short") {
            [.admit(.securityToken, "a", at: 0, .start(generation: 1)), .cutShort(.securityToken, stored, at: 0, false)]
        },
        Row(name: "given rejections, then the last four are remembered as rejected, and an expiry is not") {
            [.rejected("r1"), .rejected("r2"), .rejected("r3"), .rejected("r4"), .isRejected("r1", true),
             .rejected("r5"), .isRejected("r1", false), .isRejected("r5", true), .isRejected("x", false),
             .isRejected(nil, false)]
        },
    ]

    @Test("each row's calls return what the row says", arguments: rows)
    func row(_ row: Row) {
        var machine = Machine()
        let policy = RenewalHoldPolicy.standard
        func at(_ seconds: TimeInterval) -> Date { Self.epoch.addingTimeInterval(seconds) }
        for step in row.steps() {
            switch step {
            case .admit(let kind, let token, let seconds, let expected):
                #expect(machine.admit(kind, replacing: token, at: at(seconds)) == expected, "\(step)")
            case .wait(let kind, let id, let expected):
                let answer = machine.wait(kind, id: id, id)
                #expect(answer.map(String.init(describing:)) == expected.map(String.init(describing:)), "\(step)")
            case .land(let kind, let answer, let generation, let seconds, let waiters):
                #expect(machine.land(kind, answer, generation: generation, at: at(seconds)) == waiters, "\(step)")
            case .cancel(let kind, let id, let kept):
                #expect((machine.cancel(kind, id: id) != nil) == kept, "\(step)")
            case .sessionEnded(let waiters):
                #expect(machine.sessionEnded(.noSession, at: at(0)) == waiters, "\(step)")
            case .cutShort(let kind, let hold, let seconds, let may):
                #expect(machine.cutShort(kind, hold.map { RejectionHold(until: at($0.until.timeIntervalSince(Self.epoch)),
                                                                         backoff: $0.backoff) },
                                         policy: policy, at: at(seconds)) == may, "\(step)")
            case .rejected(let token):
                machine.noteRejection(of: token)
            case .isRejected(let token, let rejected):
                #expect(machine.isRejected(token) == rejected, "\(step)")
            }
        }
        #expect(machine.waiting(.accessToken) == 0 || machine.isRunning(.accessToken))
    }
}
