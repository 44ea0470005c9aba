import Foundation
import RegState

/// The device world's referee on the wire (``SimulationWorld/device``), and its clock: every poll of the token
/// endpoint with a device code is checked as it leaves, against what the engine was told before it.
/// - `device-poll-interval`: never sooner after the previous poll of the same code than the interval in force (the
///   announced one, or 5 s, plus 5 s for every `slow_down` delivered);
/// - `device-poll-expired`: never at or after the code's expiry (`expires_in` from the answer's delivery);
/// - `device-answer-once`: after a token answer was delivered for a code, no further poll of it (unless a disk mishap
///   or a process end since may have taken the process before it removed its record), and never a second token answer;
/// - `device-resumes`: no device authorization request while an unexpired one is pending in the store (a relaunch,
///   or a second process, takes the pending one up).
/// The device codes themselves are kept here, in memory only, so that the end of the run can check that none reached
/// a journal line or the trace (`device-code-secret`).
final class DeviceAudit: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`; `ledger` and `clock` are Sendable.
    /// The engine's clock: every wait the engine makes (the polling interval) ends when the scheduler finds nothing
    /// else to run.
    let clock: SimulationClock
    private let ledger: Ledger
    private let lock = NSLock()
    /// The secure-store key of the engine's pending device authorization.
    static let recordKey = "pending_device_authorization"
    /// The stored authorization on the disk now (the run's peek), for the expiry and the second-authorization checks.
    private let storedRecord: @Sendable () -> Data?

    private struct Authorization {
        var interval: TimeInterval
        /// `expires_in` from the moment the answer was delivered (the instant the engine reads as its arrival: no
        /// task runs between the two).
        var expiresAt: Date
        var lastPoll: Date?
        var tokenAnswers = 0
        /// The disk mishaps and process ends counted when the token answer was delivered: a crash since may have
        /// taken the process before it removed the pending record, and the next one can only poll again (the
        /// provider refuses the used code, RFC 8628 §3.5; seeds 10510034351, a crash during the next write, and
        /// 10910007653, the process crashed right after the answer, both on the Keychain disk).
        var mishapsAtAnswer: (mishaps: Int, ends: Int)?
        /// The disk mishaps counted when each `slow_down` was delivered: a failed write of a widened interval excuses
        /// a later poll at the interval without it (the process that knew it died with it, or stopped polling), and
        /// a later `slow_down` does not bring the lost widening back.
        var mishapsAtSlowDowns: [Int] = []

        /// The interval a poll must keep when `mishaps` disk mishaps are counted: `nil` when the last `slow_down`'s
        /// widening may be lost (no check, as before); otherwise the interval less 5 s for every earlier `slow_down`
        /// whose widening a mishap since may have lost.
        func requiredInterval(mishaps: Int) -> TimeInterval? {
            guard let last = mishapsAtSlowDowns.last else { return interval }
            guard last == mishaps else { return nil }
            let lost = mishapsAtSlowDowns.dropLast().filter { $0 != mishaps }.count
            return interval - 5 * TimeInterval(lost)
        }
    }

    private var authorizations: [String: Authorization] = [:]
    private(set) var issued = 0
    private(set) var polls = 0
    private(set) var slowDowns = 0
    private(set) var tokenAnswers = 0

    init(clock: SimulationClock, ledger: Ledger, storedRecord: @escaping @Sendable () -> Data?) {
        self.clock = clock
        self.ledger = ledger
        self.storedRecord = storedRecord
    }

    /// Every device code seen on the wire, for the end-of-run secrecy check.
    var deviceCodes: [String] { lock.withLock { Array(authorizations.keys) } }

    /// A request leaves `process` at the clock's now.
    func leaving(_ request: HTTPRequest, from process: Int, label: String) {
        let now = clock.now()
        if request.url.path.hasSuffix("/oauth/device/code") {
            if let expiresAt = Self.expiry(of: storedRecord()), now < expiresAt {
                ledger.violation("device-resumes", "\(label): a second device authorization while one is pending "
                                 + "until \(RecordedTime.text(expiresAt))")
            }
            return
        }
        guard SimulatedNetwork.formValue("grant_type", in: request) == "urn:ietf:params:oauth:grant-type:device_code",
              let code = SimulatedNetwork.formValue("device_code", in: request) else { return }
        let mishaps = ledger.diskMishapCount
        let ends = ledger.processEndCount
        lock.withLock {
            polls += 1
            guard var authorization = authorizations[code] else { return }
            defer { authorizations[code] = authorization }
            if authorization.tokenAnswers > 0, let mark = authorization.mishapsAtAnswer, mark.mishaps == mishaps,
               mark.ends == ends {
                ledger.violation("device-answer-once", "\(label): a poll after the code's token answer was delivered")
            }
            if now >= authorization.expiresAt {
                ledger.violation("device-poll-expired", "\(label): a poll at or after the code's expiry "
                                 + "(\(RecordedTime.text(authorization.expiresAt)))")
            }
            if let last = authorization.lastPoll, let required = authorization.requiredInterval(mishaps: mishaps),
               now.timeIntervalSince(last) < required {
                ledger.violation("device-poll-interval", "\(label): a poll \(now.timeIntervalSince(last)) s after the "
                                 + "previous one, the interval is \(required) s")
            }
            authorization.lastPoll = now
        }
    }

    /// The answer to `request` came back (`delivered`: to a live process, whole).
    func answered(_ request: HTTPRequest, _ response: HTTPResponse, delivered: Bool, label: String) {
        guard delivered else { return }
        let body = (try? JSONValue.parse(response.body))?.objectValue ?? [:]
        if request.url.path.hasSuffix("/oauth/device/code"), response.status == 200,
           let code = body["device_code"]?.stringValue {
            let interval = body["interval"]?.numberValue ?? 5
            let expiresAt = clock.now().addingTimeInterval(body["expires_in"]?.numberValue ?? 0)
            lock.withLock {
                issued += 1
                authorizations[code] = Authorization(interval: interval, expiresAt: expiresAt)
            }
            return
        }
        guard SimulatedNetwork.formValue("grant_type", in: request) == "urn:ietf:params:oauth:grant-type:device_code",
              let code = SimulatedNetwork.formValue("device_code", in: request) else { return }
        let mishaps = ledger.diskMishapCount
        let ends = ledger.processEndCount
        lock.withLock {
            guard var authorization = authorizations[code] else { return }
            defer { authorizations[code] = authorization }
            if response.status == 200 {
                tokenAnswers += 1
                authorization.tokenAnswers += 1
                authorization.mishapsAtAnswer = (mishaps, ends)
                if authorization.tokenAnswers > 1 {
                    ledger.violation("device-answer-once", "\(label): a second token answer for one device code")
                }
            } else if body["error"]?.stringValue == "slow_down" {
                slowDowns += 1
                authorization.interval += 5
                authorization.mishapsAtSlowDowns.append(mishaps)
            }
        }
    }

    /// The expiry of a stored pending authorization (`verification.expiresAt`, seconds since 1970), if one is stored.
    static func expiry(of record: Data?) -> Date? {
        guard let record, let object = try? JSONValue.parse(record),
              let seconds = object["verification"]?["expiresAt"]?.numberValue else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }
}
