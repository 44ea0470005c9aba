import Foundation
import RegState

/// The rejecting world's referee (``SimulationWorld/rejectingBackend``): the backend's API rejects every token, and
/// this watches, from the network only, what that costs. Per carrier (the access token at the API, or the backend
/// security token) it follows the tokens the servers mint and the API rejects:
/// - a mint that replaces a token the API rejected while that token was still young (less than half its lifetime
///   old: no renewal was due), by a grant of that token's own session (its lineage: the refresh token, or for the
///   security token the ID token, that the grant presents descends from the same code exchange), is a renewal for a
///   rejection;
/// - consecutive renewals for rejections form a chain (a registration, or a renewal that was due, starts a new one),
///   and the k-th of a chain must come at least `min(30 s × 2^(k-1), 15 min)` of the clock after the one before
///   (the rejection hold the store keeps across launches and processes).
///
/// `rejection-hold` is reported here, the moment a renewal breaks it, unless a write failed or a process died
/// inside one since the chain's previous renewal (a hold lost with its record).
/// ``SimulationRun/checkRejectionCost()`` checks the live security tokens at the backend at the end, from the
/// retirements counted here.
final class RejectionAudit: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`; `ledger` is Sendable.
    /// Which token the API takes.
    let carrier: TokenCarrier
    /// Seconds a minted token lives (the access or the security token's lifetime).
    let lifetime: TimeInterval
    /// The slack for the clock the engine read when it wrote the hold (a request's latency moves it up to 0.8 s).
    static let slack: TimeInterval = 1

    private let ledger: Ledger
    private let lock = NSLock()
    /// The last token of the carrier a live process received, when, whether the API rejected it since, the ledger's
    /// count of clock set-backs when it came, and its lineage (`nil`: not known).
    private var current: (token: String, mintedAt: Date, rejected: Bool, setBacksAt: Int, lineage: Int?)?
    /// Refresh tokens and ID tokens the provider issued → their lineage: the code exchange they descend from (a
    /// refresh grant's tokens are of the lineage of the refresh token it presents).
    private var lineages: [String: Int] = [:]
    private var lineageCount = 0
    /// The chain: renewals for rejections since the last other mint, and when the last one came.
    private var chain: (length: Int, lastAt: Date, mishapsAt: Int, setBacksAt: Int)?
    /// Security-token requests that left (`POST` and `DELETE`) and those answered by the backend to a live process.
    private var securityRequestsLeft = 0
    private var securityRequestsAnswered = 0
    /// Process → security tokens it received in place of a live one and has not sent a retirement for yet.
    private var retirementsDue: [Int: Int] = [:]
    /// Processes that registered (a code exchange) and have not exchanged for their security token yet.
    private var registering: Set<Int> = []
    /// Replaced tokens nobody was due to retire: a process that ended in the middle of a call with retirements due, a
    /// registration that replaced a live token (a new session retires nothing).
    private(set) var unretiredExplained = 0
    /// Whether a security token was handed to a process (the session has one that a renewal would replace).
    private var liveSecurityToken = false
    /// Renewals for rejections seen in all, and the longest chain.
    private(set) var renewals = 0
    private(set) var longestChain = 0

    init(carrier: TokenCarrier, ledger: Ledger, lifetime: TimeInterval) {
        self.carrier = carrier
        self.lifetime = lifetime
        self.ledger = ledger
    }

    /// A request leaves `process` (whatever the network then does with it).
    func leaving(_ request: HTTPRequest, from process: Int) {
        guard request.url.path.hasSuffix("/v1/security-token") else { return }
        lock.withLock {
            securityRequestsLeft += 1
            if request.method == .delete, let due = retirementsDue[process], due > 0 { retirementsDue[process] = due - 1 }
        }
    }

    /// `process` ended (crashed, relaunched, killed); `midCall`: with calls still running, so the retirements it
    /// still owed may never be sent. (A process whose calls had all returned owed none: a renewal retires the token it
    /// replaced before its callers get the new one.)
    func ended(_ process: Int, midCall: Bool) {
        lock.withLock {
            let due = retirementsDue.removeValue(forKey: process) ?? 0
            if midCall { unretiredExplained += due }
            registering.remove(process)
        }
    }

    /// The server answered `request` at `now`; `delivered`: a live process got the answer as sent.
    /// `departed`: when the request left (the engine decided to renew before that).
    func answered(_ request: HTTPRequest, _ response: HTTPResponse, delivered: Bool, process: Int, departed: Date,
                  at now: Date, mishaps: Int) {
        let path = request.url.path
        if path.hasSuffix("/v1/security-token"), delivered, response.status < 500 {
            lock.withLock { securityRequestsAnswered += 1 }
        }
        if path.contains("/v1/resource"), response.status == 401, let token = Self.bearer(of: request) {
            lock.withLock { if current?.token == token { current?.rejected = true } }
            return
        }
        let grant = SimulatedNetwork.formValue("grant_type", in: request)
        let lineage = lock.withLock { self.lineage(of: request, grant: grant, response: response) }
        guard delivered, response.status == 200 else { return }
        if grant == "authorization_code" {
            // A registration: whatever it mints next starts a new chain.
            lock.withLock {
                chain = nil
                registering.insert(process)
                if carrier == .securityToken { current?.rejected = false }
            }
        }
        // A registration's first security token (its process exchanged a code since its last one) starts a chain.
        var registrationMint = grant == "authorization_code"
        if path.hasSuffix("/v1/security-token"), request.method == .post,
           SimulatedNetwork.jsonString("security_token", in: response.body) != nil {
            lock.withLock {
                registrationMint = registering.contains(process)
                // A live token replaced: a renewal retires it; a registration (a new session) does not.
                if registering.remove(process) != nil {
                    if liveSecurityToken { unretiredExplained += 1 }
                } else if liveSecurityToken {
                    retirementsDue[process, default: 0] += 1
                }
                liveSecurityToken = true
            }
        }
        let minted: String? = switch carrier {
        case .accessToken where grant != nil: SimulatedNetwork.jsonString("access_token", in: response.body)
        case .securityToken where path.hasSuffix("/v1/security-token") && request.method == .post:
            SimulatedNetwork.jsonString("security_token", in: response.body)
        default: nil
        }
        guard let minted else { return }
        lock.withLock {
            mint(minted, lineage: lineage, at: now, departed: departed, byRegistration: registrationMint, mishaps: mishaps)
        }
    }

    /// The lineage of what `request` mints (a grant, or a security-token exchange), recording that of the tokens a
    /// grant's `200` issues, delivered or not (under `lock`).
    private func lineage(of request: HTTPRequest, grant: String?, response: HTTPResponse) -> Int? {
        let lineage: Int?
        switch grant {
        case "authorization_code":
            guard response.status == 200 else { return nil }
            lineageCount += 1
            lineage = lineageCount
        case "refresh_token":
            lineage = SimulatedNetwork.formValue("refresh_token", in: request).flatMap { lineages[$0] }
        case nil where request.url.path.hasSuffix("/v1/security-token") && request.method == .post:
            return SimulatedNetwork.jsonString("id_token", in: request.body).flatMap { lineages[$0] }
        default:
            return nil
        }
        if let lineage, response.status == 200 {
            for name in ["refresh_token", "id_token"] {
                if let token = SimulatedNetwork.jsonString(name, in: response.body) { lineages[token] = lineage }
            }
        }
        return lineage
    }

    /// Judges a mint of `lineage` against the chain (under `lock`).
    private func mint(_ token: String, lineage: Int?, at now: Date, departed: Date, byRegistration: Bool, mishaps: Int) {
        defer { current = (token, now, false, ledger.clockSetBackCount, lineage) }
        // "Young" is read on the clock: set back since the token came, the clock no longer says whether a renewal was
        // due when the engine decided it (seed 9920020741: due at 889 s of a 900-s token, the clock then set back
        // 462 s before the request left, and a renewal that was due looked like one for a rejection).
        // A mint of another session's lineage replaces nothing the API rejected (seed 9940005517: a second
        // registration's due renewal, in another process, came while the first session's fresh token stood rejected).
        guard !byRegistration, let previous = current, previous.rejected,
              previous.setBacksAt == ledger.clockSetBackCount,
              previous.lineage == nil || lineage == nil || previous.lineage == lineage,
              now.timeIntervalSince(previous.mintedAt) < lifetime / 2
        else {
            chain = nil
            return
        }
        renewals += 1
        let setBacks = ledger.clockSetBackCount
        guard let last = chain else {
            chain = (1, now, mishaps, setBacks)
            longestChain = max(longestChain, 1)
            return
        }
        // The hold is written after the previous answer came, and checked before this request left: the gap between
        // the two on the clock. A clock set back in between hides it from here, so it is not judged: the readings no
        // longer measure the time that passed, and the engine cuts a hold to its backoff from the clock it reads
        // (seed 9200017655: set back 236 s, then 238 s passed, a gap of 6 s on the clock).
        let hold = min(RejectionHold.first * pow(2, Double(last.length - 1)), RejectionHold.longest)
        let gap = departed.timeIntervalSince(last.lastAt)
        if gap >= 0, gap + Self.slack < hold, mishaps == last.mishapsAt, setBacks == last.setBacksAt {
            ledger.violation("rejection-hold", "renewal \(last.length + 1) of a chain of \(carrier.rawValue) renewals for "
                             + "rejections came \(Int(gap)) s after the one before; the hold was \(Int(hold)) s")
        }
        chain = (last.length + 1, now, mishaps, setBacks)
        longestChain = max(longestChain, last.length + 1)
    }

    /// Security-token requests that left a process and were not answered by the backend to a live process (each may
    /// leave a token nobody retires: an exchange whose answer was lost, a retirement that never arrived).
    var unansweredSecurityRequests: Int { lock.withLock { securityRequestsLeft - securityRequestsAnswered } }

    /// The token in the `Authorization` header.
    static func bearer(of request: HTTPRequest) -> String? {
        guard let header = request.header("Authorization"), let space = header.firstIndex(of: " ") else { return nil }
        return String(header[header.index(after: space)...])
    }
}
