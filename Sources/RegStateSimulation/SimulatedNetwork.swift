import Foundation
import RegState
import RegStateTesting

/// A fault the network plays on one request, drawn from the run's seed.
public enum NetworkFault: String, Sendable, CaseIterable {
    /// The request never leaves the device (no network).
    case offline
    /// No answer in time; the request was never delivered.
    case timeoutBeforeDelivery
    /// The request reached the server, which acted on it; the answer was lost (the dangerous one).
    case answerLost
    /// A proxy answered `503` without delivering the request.
    case serverError
    /// The server answered `429 Too Many Requests` without acting.
    case tooManyRequests
    /// The request was delivered and acted on; the answer arrived mangled (a `200` that is not JSON).
    case malformedAnswer
    /// A proxy answered with a redirect to another origin.
    case redirectElsewhere
}

/// The network between the engine instances and the simulator: delivers requests to the simulator's transport,
/// plays faults drawn from the seed, moves the virtual clock by each request's latency, and audits every request
/// for tokens going where they must not.
public final class SimulatedNetwork: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`.
    private let lock = NSLock()
    private let base: any HTTPTransport
    private let clock: ManualClock
    private let ledger: Ledger
    private var random: SeededRandom
    private var faultRate = 0
    private var offline = false
    private var disabled: Set<NetworkFault> = []
    private var watch: LaunchBudgetWatch?
    private var rejections: RejectionAudit?
    private var forgeries: ForgeryAudit?
    private var devices: DeviceAudit?
    private var stepUps: StepUpAudit?
    private var defectiveRefreshAnswers = false
    private var onRefreshAnswer: (@Sendable () -> Void)?
    /// keys-before-grant: per process, whether the issuer's key set reached it since it last presented a refresh
    /// token, and the refresh token it presented last (a retry of the same grant presents it again).
    private var keysFetched: [Int: Bool] = [:]
    private var lastPresented: [Int: String] = [:]
    /// The DPoP invariants, checked on every request and answer.
    let dpop: DPoPAudit
    /// Origins (scheme://host:port) a token may be sent to, and the issuer's origin (the only one for refresh tokens).
    private let tokenOrigins: Set<String>
    private let issuerOrigin: String
    /// Where a redirect fault points: an origin configured for nothing.
    public static let elsewhere = "https://elsewhere.example"

    /// A network in front of `base` (the simulator's transport).
    public init(base: any HTTPTransport, clock: ManualClock, random: SeededRandom, ledger: Ledger, issuer: URL, backend: URL) {
        self.base = base
        self.clock = clock
        self.random = random
        self.ledger = ledger
        dpop = DPoPAudit(ledger: ledger)
        issuerOrigin = Self.origin(issuer)
        tokenOrigins = [Self.origin(issuer), Self.origin(backend)]
    }

    /// Percent of requests that meet a fault.
    public var faultPercent: Int { get { lock.withLock { faultRate } } set { lock.withLock { faultRate = newValue } } }
    /// Whether the device is offline (every request fails before leaving).
    public var isOffline: Bool { get { lock.withLock { offline } } set { lock.withLock { offline = newValue } } }

    /// Faults still drawn (so every later draw stays the same) but never played (the shrinker turns them off).
    var disabledFaults: Set<NetworkFault> { get { lock.withLock { disabled } } set { lock.withLock { disabled = newValue } } }

    /// The launch-budget world's stalls (``LaunchBudgetWatch``); `nil` in every other world.
    var launchBudgetWatch: LaunchBudgetWatch? { get { lock.withLock { watch } } set { lock.withLock { watch = newValue } } }

    /// The refreshed-id world: whether the provider's refresh answers now carry an ID token of another subject. Such
    /// an answer renews nothing (the engine refuses it), so it is not counted as a renewal that arrived.
    var refreshedIDTokensDefective: Bool {
        get { lock.withLock { defectiveRefreshAnswers } }
        set { lock.withLock { defectiveRefreshAnswers = newValue } }
    }

    /// Called as a refresh grant's answer reaches a live process, before the process reads it (the shared-session
    /// disk's device may lock then, so the renewal's write of the rotated tokens meets a locked device).
    var refreshAnswered: (@Sendable () -> Void)? {
        get { lock.withLock { onRefreshAnswer } }
        set { lock.withLock { onRefreshAnswer = newValue } }
    }

    /// The rejecting world's referee (``RejectionAudit``); `nil` in every other world.
    var rejectionAudit: RejectionAudit? { get { lock.withLock { rejections } } set { lock.withLock { rejections = newValue } } }
    /// The forged-redirect world's referee (``ForgeryAudit``); `nil` in every other world.
    var forgeryAudit: ForgeryAudit? { get { lock.withLock { forgeries } } set { lock.withLock { forgeries = newValue } } }
    /// The device world's referee on the wire (``DeviceAudit``), `nil` in every other world.
    var deviceAudit: DeviceAudit? { get { lock.withLock { devices } } set { lock.withLock { devices = newValue } } }
    /// The step-up world's referee on the wire (``StepUpAudit``), `nil` in every other world.
    var stepUpAudit: StepUpAudit? { get { lock.withLock { stepUps } } set { lock.withLock { stepUps = newValue } } }

    /// The transport of one process: requests from a dead process never leave, answers to one are lost.
    func transport(for process: Int, isAlive: @escaping @Sendable () -> Bool) -> any HTTPTransport {
        ProcessTransport(network: self, process: process, isAlive: isAlive)
    }

    fileprivate func send(
        _ request: HTTPRequest, from process: Int, isAlive: @Sendable () -> Bool
    ) async throws(TransportError) -> HTTPResponse {
        guard isAlive() else { throw .connectionFailed("the process has ended") }
        let label = "p\(process) \(request.method.rawValue) \(request.url.host ?? "?")\(request.url.path)"
        audit(request, label: label)
        dpop.leaving(request, label: label)
        rejectionAudit?.leaving(request, from: process)
        forgeryAudit?.leaving(request, from: process, label: label)
        deviceAudit?.leaving(request, from: process, label: label)
        stepUpAudit?.leaving(request, from: process, label: label)
        let leftAt = clock.now()
        let (fault, latency, yields) = lock.withLock { () -> (NetworkFault?, Double, Int) in
            let drawn: NetworkFault? = offline ? .offline
                : random.chance(faultRate) ? NetworkFault.allCases[random.below(NetworkFault.allCases.count)] : nil
            let fault = drawn.flatMap { disabled.contains($0) ? nil : $0 }
            return (fault, Double(random.below(800)) / 1000, random.below(4))
        }
        // The order in which answers come back: a seeded number of turns for other tasks first.
        for _ in 0..<yields { await DeterministicScheduler.yield() }
        let refreshToken = Self.formValue("refresh_token", in: request)
        let isGrant = Self.formValue("grant_type", in: request) == "refresh_token"
        if isGrant, let refreshToken {
            ledger.presented(refreshToken: refreshToken, by: process, processAlive: isAlive(), at: clock.now())
            checkKeysBeforeGrant(refreshToken, by: process, label: label)
        }
        switch fault {
        case .offline:
            ledger.note("net   \(label) -> offline")
            throw TransportError.offline
        case .timeoutBeforeDelivery:
            ledger.note("net   \(label) -> timeout (not delivered)")
            throw TransportError.timedOut
        case .serverError:
            ledger.note("net   \(label) -> 503 (proxy)")
            ledger.delivered(by: process)
            return HTTPResponse(status: 503, headers: ["Content-Type": "text/html"], body: Data("<html>unavailable</html>".utf8))
        case .tooManyRequests:
            ledger.note("net   \(label) -> 429 (proxy)")
            ledger.delivered(by: process)
            return HTTPResponse(status: 429, headers: ["Retry-After": "30"], body: Data())
        case .redirectElsewhere:
            ledger.note("net   \(label) -> 307 to \(Self.elsewhere)")
            // An answer, if only a proxy's: the device is online (the lifecycle design's condition for a logout).
            ledger.delivered(by: process)
            return HTTPResponse(status: 307, headers: ["Location": Self.elsewhere + request.url.path])
        case .answerLost, .malformedAnswer, nil:
            break
        }
        if Self.origin(request.url) == Self.elsewhere {
            ledger.note("net   \(label) -> connection refused")
            throw TransportError.connectionFailed("elsewhere")
        }
        clock.advance(by: latency)
        let response = try await base.send(request)
        let watch = launchBudgetWatch
        var launchAnswer = false
        if let watch, let seconds = watch.stall(for: isGrant) {
            launchAnswer = await watch.hold(seconds, process: process, label: label)
        }
        ledger.delivered(by: process)
        dpop.answered(request, response, label: label, clockMoved: abs(clock.now().timeIntervalSince(leftAt)) > 30)
        let delivered = isAlive() && fault != .answerLost && fault != .malformedAnswer
        if delivered, response.status == 200, request.url.path.hasSuffix("/jwks.json") {
            lock.withLock { keysFetched[process] = true }
        }
        rejectionAudit?.answered(request, response, delivered: delivered, process: process, departed: leftAt, at: clock.now(),
                                 mishaps: ledger.diskMishapCount)
        deviceAudit?.answered(request, response, delivered: delivered, label: label)
        stepUpAudit?.answered(response, delivered: delivered, process: process)
        if isGrant, (400..<500).contains(response.status) { ledger.providerRefused(presenting: refreshToken) }
        // The resource refused the token or its proof: the renewal that follows ignores the token's age.
        if !isGrant, response.status == 401, request.url.path.hasPrefix("/v1/resource") { ledger.forcedRenewal(by: process) }
        // The backend refused the ID token offered for a security token: the engine renews the provider tokens once,
        // whatever the access token's age, for a fresh ID token to exchange (seed 9940004188: the clock set back
        // 374 s put the stored ID token's `iat` in the backend's future).
        if delivered, response.status == 401, request.method == .post, request.url.path.hasSuffix("/v1/security-token") {
            ledger.forcedRenewal(by: process)
        }
        let brought = isGrant && response.status == 200 && delivered && !refreshedIDTokensDefective
        if brought { ledger.grantDelivered(at: clock.now()) }
        if launchAnswer { watch?.answered(process, accessToken: brought ? Self.jsonString("access_token", in: response.body) : nil) }
        var rotation = ""
        if isGrant, response.status == 200, let old = refreshToken, let new = Self.jsonString("refresh_token", in: response.body) {
            if new != old { ledger.rotated(old, into: new, delivered: delivered) }
            rotation = " rt#\(Ledger.fingerprint(old)) -> rt#\(Ledger.fingerprint(new))"
        }
        let presented = refreshToken.map { " rt#\(Ledger.fingerprint($0))" } ?? ""
        switch fault {
        case .answerLost:
            ledger.note("net   \(label)\(presented) -> \(response.status)\(rotation) ANSWER LOST")
            throw TransportError.timedOut
        case .malformedAnswer:
            ledger.note("net   \(label)\(presented) -> \(response.status)\(rotation) MALFORMED")
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data("{\"access_to".utf8))
        default:
            guard isAlive() else {
                ledger.note("net   \(label)\(presented) -> \(response.status)\(rotation) (process ended)")
                throw TransportError.connectionFailed("the process has ended")
            }
            ledger.note("net   \(label)\(presented) -> \(response.status)\(rotation)")
            if isGrant, response.status == 200 { refreshAnswered?() }
            return response
        }
    }

    /// keys-before-grant: a process presents a refresh token (for a session with an ID token: every session here) only
    /// after the issuer's key set reached it since its previous grant, so the answer's ID token can be checked with
    /// the provider's current keys and no grant is spent on an answer that cannot be (a rotation while the key set is
    /// out of reach). A retry of the same grant (a DPoP nonce, an unexplained answer) presents the same token again.
    private func checkKeysBeforeGrant(_ refreshToken: String, by process: Int, label: String) {
        let fetched = lock.withLock { () -> Bool in
            defer { keysFetched[process] = false; lastPresented[process] = refreshToken }
            return keysFetched[process] == true || lastPresented[process] == refreshToken
        }
        if !fetched {
            ledger.violation("keys-before-grant", "\(label) presents a refresh token without the issuer's keys fetched "
                             + "since its previous grant")
        }
    }

    /// The token-origin invariant: a request carrying a token goes only to an origin configured for it, and a
    /// refresh token only to the issuer.
    private func audit(_ request: HTTPRequest, label: String) {
        let origin = Self.origin(request.url)
        let carriesBearer = request.header("Authorization") != nil || request.header("DPoP") != nil
        if carriesBearer, !tokenOrigins.contains(origin) {
            ledger.violation("token-origin", "\(label) carries Authorization to \(origin)")
        }
        let body = String(decoding: request.body ?? Data(), as: UTF8.self)
        if body.contains("refresh_token="), Self.formValue("refresh_token", in: request) != nil, origin != issuerOrigin {
            ledger.violation("token-origin", "\(label) carries a refresh token to \(origin)")
        }
    }

    static func origin(_ url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(url.host?.lowercased() ?? "")\(port)"
    }

    /// The first non-empty value of `name` in the request's form body, decoded. The body is split on its bytes (the
    /// engine's forms are ASCII, percent-encoded), and only a value holding `%` or `+` goes through Foundation.
    static func formValue(_ name: String, in request: HTTPRequest) -> String? {
        guard let body = request.body, let text = String(data: body, encoding: .utf8) else { return nil }
        for pair in text.utf8.split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1)
            if parts.count == 2, parts[0].elementsEqual(name.utf8) {
                let value = String(Substring(parts[1]))
                guard value.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return value }
                return value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
        }
        return nil
    }

    static func jsonString(_ name: String, in body: Data?) -> String? {
        guard let body, let object = try? JSONValue.parse(body) else { return nil }
        return object[name]?.stringValue
    }
}

/// One process's transport over the ``SimulatedNetwork``.
private struct ProcessTransport: HTTPTransport {
    let network: SimulatedNetwork
    let process: Int
    let isAlive: @Sendable () -> Bool

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        try await network.send(request, from: process, isAlive: isAlive)
    }
}
