import Foundation
import RegState

/// What a run saw and what it found wrong: the trace (requests, faults, events, store writes, never a token: tokens
/// appear as short fingerprints) and the record of every refresh token presented, rotated and stored, which the
/// refresh-reuse invariant reads.
public final class Ledger: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`.
    private let lock = NSLock()
    private var lines: [String] = []
    private var found: [String] = []
    /// Refresh-token fingerprint → the fingerprint of its successor, once the provider rotated it.
    private var successors: [String: String] = [:]
    /// Fingerprints of refresh tokens that some write put on the disk.
    private var storedRefreshTokens: Set<String> = []
    /// Fingerprint → how many times it was presented to the token endpoint.
    private var presentations: [String: Int] = [:]
    /// Rotations whose answer never reached a live process (lost, malformed, or the process died).
    private var lostRotations: Set<String> = []
    private var step = 0
    /// `step` as the three-digit prefix of a trace line (`String(format:)` per line was a visible cost of a run).
    private var stepLabel = "000 "
    private var refusals = 0
    private var interruptedRefusals = 0
    private var grantsDelivered: [Date] = []
    private var diskMishaps = 0
    private var deliveredBy: [Int: Int] = [:]
    private var hostDenials = 0
    /// Whether a rotation that reached a live process must be stored before its refresh token is presented again
    /// (`rotation-kept`), unless a disk fault or a process's end came between (the refreshed-id world). Set once,
    /// before the run starts.
    var strictRotations = false
    /// Rotations that reached a live process: the disk faults and process ends counted when they did.
    private var deliveredRotations: [String: (mishaps: Int, ends: Int)] = [:]
    private var processEnds = 0
    /// The process that removed the credentials record, at each removal (`nil`: a crash or power loss did).
    private var credentialRemovers: [Int?] = []
    /// The credentials record as the next read would find it (the last one a write or a power loss left).
    private var currentCredentials: Data?
    /// A grant presenting the refresh token of the record on the disk while that record's access token has more than
    /// this many seconds left is needless (`needless-renewal`): half the access lifetime, the most the engine renews
    /// early. Set once, before the run starts.
    var needlessRenewalLife: TimeInterval = .infinity
    /// Process → calls made on it that renew regardless of the token's age, not yet matched with a presentation.
    private var forcedRenewals: [Int: Int] = [:]
    /// The latest time the clock showed before it was last set back: a call in flight may have judged the token's
    /// age by it (`needless-renewal` measures freshness from the later of it and now).
    private var clockHighWater = Date.distantPast
    private var clockSetBacks = 0
    /// Refresh tokens already judged by `needless-renewal` (a retry after a nonce challenge presents one again).
    private var judgedPresentations: Set<String> = []

    /// An empty ledger.
    public init() {}

    /// The trace so far, one line per fact.
    public var trace: [String] { lock.withLock { lines } }
    /// Every invariant violation found, in order.
    public var violations: [String] { lock.withLock { found } }

    /// Sets the step number that prefixes later trace lines.
    func begin(step: Int) {
        lock.withLock {
            self.step = step
            let digits = "\(step)"
            stepLabel = String(repeating: "0", count: max(0, 3 - digits.count)) + digits + " "
        }
    }

    /// Appends a trace line.
    func note(_ line: String) { lock.withLock { lines.append(stepLabel + line) } }

    /// Records an invariant violation (and traces it).
    func violation(_ invariant: String, _ detail: String) {
        lock.withLock {
            let text = "\(invariant): \(detail)"
            found.append(text)
            lines.append(stepLabel + "VIOLATION " + text)
        }
    }

    // MARK: Refresh tokens

    /// A refresh grant presented `token`. Reports a second presentation of a token whose successor was already
    /// on the disk: the engine knew the new token and still spent the old one.
    func presented(refreshToken token: String, by process: Int, processAlive: Bool, at now: Date) {
        let id = Self.fingerprint(token)
        let record = lock.withLock { currentCredentials }.flatMap { try? JSONValue.parse($0) }
        lock.withLock {
            let latest = max(now, clockHighWater).timeIntervalSince1970
            if let record, record["refresh_token"]?.stringValue == token, let expiry = record["expires_at"]?.numberValue,
               expiry - latest > needlessRenewalLife, processAlive, judgedPresentations.insert(id).inserted {
                judgeNeedless(id, by: process, lifeLeft: expiry - latest)
            }
            presentations[id, default: 0] += 1
            guard presentations[id, default: 0] > 1 else { return }
            if !processAlive {
                // The kernel released the dead process's lock while its request was on the wire: a crash made the
                // second presentation unavoidable.
                lines.append(stepLabel + "note  rt#\(id) presented again by p\(process) after it died (unavoidable: request on the wire)")
            } else if let next = successors[id], storedRefreshTokens.contains(next) {
                let text = "refresh-reuse: p\(process) presented rt#\(id) again although its successor rt#\(next) was stored"
                found.append(text)
                lines.append(stepLabel + "VIOLATION " + text)
            } else if strictRotations, let next = successors[id], let mark = deliveredRotations[id],
                      mark.mishaps == diskMishaps, mark.ends == processEnds {
                let text = "rotation-kept: p\(process) presented rt#\(id) again although its rotation to rt#\(next) reached "
                    + "a live process, and no disk fault or process end kept it from the disk"
                found.append(text)
                lines.append(stepLabel + "VIOLATION " + text)
            } else {
                let why = lostRotations.contains(id) ? "its rotation's answer was lost" : "no rotation of it was stored"
                lines.append(stepLabel + "note  rt#\(id) presented again (unavoidable: \(why))")
            }
        }
    }

    /// needless-renewal: a process that waited for the store's lock while another renewed uses the token stored
    /// meanwhile (it re-reads the record under the lock), so only a call that renews regardless of age presents the
    /// refresh token of a record whose access token is still fresh. Caller holds `lock`.
    private func judgeNeedless(_ id: String, by process: Int, lifeLeft: TimeInterval) {
        if let credit = forcedRenewals[process], credit > 0 {
            forcedRenewals[process] = credit - 1
            lines.append(stepLabel + "note  rt#\(id) presented by p\(process) with \(Int(lifeLeft))s left on the stored "
                         + "access token (a call that renews regardless of age)")
            return
        }
        let text = "needless-renewal: p\(process) presented rt#\(id) while the stored record held it with an access token "
            + "good for \(Int(lifeLeft))s more, and no call of that process renews regardless of age"
        found.append(text)
        lines.append(stepLabel + "VIOLATION " + text)
    }

    /// The clock is about to be set back from `now`.
    func clockSetBack(from now: Date) {
        lock.withLock {
            clockHighWater = max(clockHighWater, now)
            clockSetBacks += 1
        }
    }

    /// How many times the clock was set back so far: a call that saw the same count when it began and when it ended
    /// saw the clock only move forward.
    var clockSetBackCount: Int { lock.withLock { clockSetBacks } }

    /// A call that renews regardless of the token's age (an explicit renewal, a server's rejection) was made on
    /// `process`: it explains one presentation of a fresh record's refresh token (`needless-renewal`).
    func forcedRenewal(by process: Int) { lock.withLock { forcedRenewals[process, default: 0] += 1 } }

    /// The provider rotated `old` into `new`; `delivered` says whether a live process received the answer.
    func rotated(_ old: String, into new: String, delivered: Bool) {
        lock.withLock {
            successors[Self.fingerprint(old)] = Self.fingerprint(new)
            if !delivered { lostRotations.insert(Self.fingerprint(old)) }
            if delivered { deliveredRotations[Self.fingerprint(old)] = (diskMishaps, processEnds) }
        }
    }

    /// A write put `data` under `key` (the credentials record: its refresh token is now known to the disk).
    /// A removal counts only when a record was there: removing nothing (the Keychain model traces every call, the
    /// file system only changes) removed no session, anyone's.
    func stored(_ data: Data?, key: String, by process: Int?) {
        guard key == "credentials" else { return }
        let removed = lock.withLock { () -> Bool in
            defer { currentCredentials = data }
            return data == nil && currentCredentials != nil
        }
        guard let token = Self.refreshToken(in: data) else {
            if removed { lock.withLock { credentialRemovers.append(process) } }
            return
        }
        lock.withLock { _ = storedRefreshTokens.insert(Self.fingerprint(token)) }
    }

    /// How many times the credentials record was removed so far (a mark for ``credentialsRemoved(since:byOtherThan:)``).
    var credentialRemovalCount: Int { lock.withLock { credentialRemovers.count } }

    /// Whether a process other than `process` (or a crash) removed the credentials record after `mark`.
    func credentialsRemoved(since mark: Int, byOtherThan process: Int) -> Bool {
        lock.withLock { credentialRemovers.dropFirst(mark).contains { $0 != process } }
    }

    /// Whether process `process` removed the credentials record after `mark`.
    func credentialsRemoved(since mark: Int, by process: Int) -> Bool {
        lock.withLock { credentialRemovers.dropFirst(mark).contains { $0 == process } }
    }

    /// A power loss reverted the disk: of the refresh tokens written, only the one in `data` (if any) is still there.
    func storageReverted(to data: Data?) {
        lock.withLock {
            currentCredentials = data
            storedRefreshTokens = []
            if let token = Self.refreshToken(in: data) { storedRefreshTokens.insert(Self.fingerprint(token)) }
        }
    }

    /// The provider (not a proxy) refused a refresh grant.
    func providerRefused(presenting token: String?) {
        lock.withLock {
            refusals += 1
            if let token, lostRotations.contains(Self.fingerprint(token)) { interruptedRefusals += 1 }
        }
    }
    /// How many of the provider's refusals were of a refresh token whose rotation's answer was lost: an interrupted
    /// renewal's, which the engine must not report as the provider's denial of the session.
    var refusalsOfInterruptedRenewals: Int { lock.withLock { interruptedRefusals } }
    /// How many refresh grants the provider refused.
    var providerRefusals: Int { lock.withLock { refusals } }

    /// A refresh grant answered 200 to a live process (a renewal that arrived).
    func grantDelivered(at date: Date) { lock.withLock { grantsDelivered.append(date) } }
    /// The virtual times at which refresh grants answered 200 to a live process, in the order they arrived.
    var deliveredGrants: [Date] { lock.withLock { grantsDelivered } }
    /// A write failed or a process crashed inside one: a renewal's result may be lost, so another may follow.
    func diskMishap() { lock.withLock { diskMishaps += 1 } }
    /// A process ended (crashed, or relaunched): what it received and had not stored is gone with it.
    func processEnded() { lock.withLock { processEnds += 1 } }
    /// How many processes ended (crashed, or relaunched).
    var processEndCount: Int { lock.withLock { processEnds } }
    /// A request of process `process` got an answer (from the server or a proxy): the device was online.
    func delivered(by process: Int) { lock.withLock { deliveredBy[process, default: 0] += 1 } }
    /// How many requests of process `process` got an answer.
    func deliveredCount(by process: Int) -> Int { lock.withLock { deliveredBy[process, default: 0] } }
    /// The host reported that its SSO refused to renew (the lifecycle design's `ssoDenied` logout).
    func hostDenied() { lock.withLock { hostDenials += 1 } }
    /// How many times the host reported a refusal of its SSO.
    var hostDenialCount: Int { lock.withLock { hostDenials } }
    /// How many writes failed or crashed.
    var diskMishapCount: Int { lock.withLock { diskMishaps } }

    /// How many refresh grants were presented in all.
    var refreshPresentations: Int { lock.withLock { presentations.values.reduce(0, +) } }

    // MARK: Text without secrets

    /// A short, stable fingerprint of a token (FNV-1a), for traces: never the token itself.
    public static func fingerprint(_ token: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in token.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return String(hash >> 40, radix: 16)
    }

    /// The refresh token in a stored credentials record, if any.
    static func refreshToken(in data: Data?) -> String? {
        guard let data, let object = try? JSONValue.parse(data) else { return nil }
        return object["refresh_token"]?.stringValue
    }

    /// What a trace says about a stored value: the refresh token's fingerprint for the credentials record.
    static func describe(_ data: Data?, key: String) -> String {
        guard key == "credentials" else { return "" }
        guard let data else { return "" }
        guard let token = refreshToken(in: data) else { return " (no refresh token)" }
        return " (rt#\(fingerprint(token)))"
    }
}
