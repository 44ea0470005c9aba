import Foundation
import RegState
import RegStateSimulator

/// The one provider a fleet shares: discovery and a token endpoint that answers refresh-token grants with opaque
/// tokens (no ID token: a fleet run measures the load, not the validation), a capacity in requests per virtual second
/// (more are answered 503), and an outage during which every request is answered 503 with its maintenance page's
/// `Retry-After`. It counts every request per virtual second, and checks each install's attempts against the backoff
/// the policy allows (``FleetInstallLedger``).
final class FleetProvider: HTTPTransport, @unchecked Sendable {
    // @unchecked: the run is one task on the deterministic scheduler; every request is answered inside the call the
    // driver awaits, so no two requests are answered at once.
    static let issuer = "https://fleet-idp.regstate.sim"
    static let clientID = "fleet-app"
    static let issuerURL = URL(string: issuer) ?? URL(fileURLWithPath: "/")
    static let redirectURI = URL(string: "com.regstate.fleet:/callback") ?? URL(fileURLWithPath: "/")

    let options: FleetOptions
    let time: FleetTime
    /// Token-endpoint requests per virtual second (index: the second).
    private(set) var requests: [Int]
    /// Grants answered with tokens per virtual second.
    private(set) var renewals: [Int]
    /// Discovery requests (each engine fetches it once, at its first renewal).
    private(set) var discoveryRequests = 0
    /// Each install's attempts.
    private(set) var installs: [FleetInstallLedger]

    init(options: FleetOptions, time: FleetTime) {
        self.options = options
        self.time = time
        let seconds = Int(options.end.rounded(.up)) + 2
        requests = [Int](repeating: 0, count: seconds)
        renewals = [Int](repeating: 0, count: seconds)
        installs = [FleetInstallLedger](repeating: FleetInstallLedger(), count: options.installs)
    }

    /// Whether the provider is down now.
    var isDown: Bool { time.seconds >= options.outageStart && time.seconds < options.recovery }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let second = min(max(0, Int(time.seconds)), requests.count - 1)
        if request.url.path.hasSuffix("/.well-known/openid-configuration") {
            discoveryRequests += 1
            return isDown ? outagePage() : .json(200, Self.discovery)
        }
        guard request.url.path == "/token", request.method == .post else { return HTTPResponse(status: 404) }
        requests[second] += 1
        let form = request.formParameters
        guard form["grant_type"] == "refresh_token", let token = form["refresh_token"], token.hasPrefix("rt-"),
              let index = Int(token.dropFirst(3)), installs.indices.contains(index)
        else { return .json(400, ["error": "invalid_grant"]) }
        if isDown {
            let page = outagePage()
            installs[index].failed(at: time.seconds, retryAfter: page.header("Retry-After").flatMap(TimeInterval.init))
            return page
        }
        if requests[second] > options.capacity {
            installs[index].failed(at: time.seconds, retryAfter: nil)
            return HTTPResponse(status: 503, headers: ["Content-Type": "application/json"],
                                body: Data(#"{"error":"temporarily_unavailable"}"#.utf8))
        }
        installs[index].succeeded(at: time.seconds, recovery: options.recovery)
        renewals[second] += 1
        return .json(200, ["access_token": .string("at-\(index)-\(second)"), "token_type": "Bearer",
                           "expires_in": .number(options.tokenLifetime)],
                     headers: ["Cache-Control": "no-store"])
    }

    /// The outage's answer: a bare 502 at first, then the maintenance page, 503 with its `Retry-After`.
    private func outagePage() -> HTTPResponse {
        guard let seconds = options.outageRetryAfter,
              time.seconds >= options.outageStart + options.maintenancePageAfter
        else { return HTTPResponse(status: 502, headers: ["Content-Type": "text/plain"], body: Data("Bad Gateway".utf8)) }
        return HTTPResponse(status: 503, headers: ["Content-Type": "application/json", "Retry-After": String(seconds)],
                            body: Data(#"{"error":"temporarily_unavailable"}"#.utf8))
    }

    static let discovery: JSONValue = [
        "issuer": .string(issuer),
        "authorization_endpoint": .string(issuer + "/authorize"),
        "token_endpoint": .string(issuer + "/token"),
        "jwks_uri": .string(issuer + "/jwks"),
        "grant_types_supported": ["authorization_code", "refresh_token"],
    ]
}
