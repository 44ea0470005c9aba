import Foundation
import RegState
import RegStateTesting

/// The fleet world: many installs, each a real `RegStateService` with its own in-memory store and journal, its own
/// clock offset and call rhythm, against one ``FleetProvider`` that goes down for a while and comes back. One task
/// drives it on the deterministic scheduler: a queue of the installs' next API calls in virtual time; the clock jumps
/// to the next call, the call is awaited, the next one is queued. What the provider saw is the ``FleetReport``.
public final class FleetRun {
    private let options: FleetOptions
    private let time = FleetTime()
    private let provider: FleetProvider
    private var services: [RegStateService] = []
    private var stores: [InMemorySecureStore] = []
    private var offsets: [TimeInterval] = []
    private var periods: [TimeInterval] = []
    private var random: SeededRandom
    /// The jitter factor of each stored backoff hold (its delay over its nominal step), for the jitter check.
    private var jitterFactors: [Double] = []
    private var calls = 0

    /// A run of `options`.
    public init(options: FleetOptions) {
        self.options = options
        provider = FleetProvider(options: options, time: time)
        random = SeededRandom(seed: options.seed ^ 0xF1EE_7000_0000_0046)
    }

    /// Runs the fleet to its end and reports what the provider saw.
    public func run() async -> FleetReport {
        var queue = FleetQueue()
        for index in 0..<options.installs {
            let service = makeInstall(index)
            await service.start()
            queue.push(time: random.uniform(0..<periods[index]), install: index)
        }
        while let next = queue.pop(), next.time < options.end {
            time.seconds = next.time
            await call(next.install)
            let period = periods[next.install] * random.uniform(0.9..<1.1)
            queue.push(time: next.time + period, install: next.install)
        }
        return FleetReport(options: options, provider: provider, jitterFactors: jitterFactors, calls: calls)
    }

    /// One API call of install `index`'s app: a token for its request.
    private func call(_ index: Int) async {
        calls += 1
        let failuresBefore = provider.installs[index].failures
        _ = try? await services[index].validAccessToken()
        if provider.installs[index].failures > failuresBefore { noteHold(index) }
    }

    /// The hold the engine stored after a failure: its jitter factor (holds the server's `Retry-After` set are not
    /// jittered and are left out).
    private func noteHold(_ index: Int) {
        guard let data = try? stores[index].data(forKey: "credentials"), let record = try? JSONValue.parse(data),
              let until = record["access_token_backoff"]?["until"]?.numberValue,
              let backoff = record["access_token_backoff"]?["backoff"]?.numberValue, backoff > 0
        else { return }
        let now = FleetTime.epoch.timeIntervalSince1970 + time.seconds + offsets[index]
        if let retryAfter = options.outageRetryAfter, abs(until - now - Double(retryAfter)) < 1e-6 {
            return
        }
        jitterFactors.append((until - now) / backoff)
    }

    /// Install `index`: its clock offset, call rhythm, a session whose token was issued at a drawn moment of the
    /// lifetime before the run (so renewals are spread before the outage), and its service.
    private func makeInstall(_ index: Int) -> RegStateService {
        let offset = random.uniform(-options.clockJitter..<options.clockJitter)
        let period = random.uniform(options.callPeriod.lowerBound..<options.callPeriod.upperBound)
        // Issued so that its renewal point lies ahead: within the lifetime before the grace window starts.
        let issued = -random.uniform(0..<(options.tokenLifetime - options.gracePeriod))
        let issuedAt = FleetTime.epoch.timeIntervalSince1970 + issued + offset
        let record = #"{"access_token":"at-\#(index)-0","client_id":"\#(FleetProvider.clientID)","#
            + #""expires_at":\#(issuedAt + options.tokenLifetime),"issued_at":\#(issuedAt),"#
            + #""issuer":"\#(FleetProvider.issuer)","profile":{"emailVerified":false,"issuer":"\#(FleetProvider.issuer)","#
            + #""subject":"user-\#(index)"},"refresh_token":"rt-\#(index)","registration_type":"SOCIAL","#
            + #""session_id":"fleet-\#(options.seed)-\#(index)","stage":"confirmed","token_type":"Bearer"}"#
        let store = InMemorySecureStore(["credentials": Data(record.utf8)])
        var configuration = RegStateConfiguration(
            oidc: OIDCConfiguration(issuer: FleetProvider.issuerURL, clientID: FleetProvider.clientID,
                                    redirectURI: FleetProvider.redirectURI),
            gracePeriod: options.gracePeriod)
        configuration.oidc.unexplainedAnswerRetryDelay = 0
        configuration.checksRegistrationAtLaunch = false
        configuration.renewalHoldPolicy = options.policyOn ? .standard : .off
        let service = RegStateService(configuration: configuration, dependencies: RegStateDependencies(
            store: store, journal: InMemoryJournal(), transport: provider,
            clock: FleetClock(time: time, offset: offset), crypto: SeededCrypto(random: random.split())))
        services.append(service)
        stores.append(store)
        offsets.append(offset)
        periods.append(period)
        return service
    }
}

extension SeededRandom {
    /// A number in `range`, uniformly.
    mutating func uniform(_ range: Range<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * Double(next() >> 11) / Double(UInt64(1) << 53)
    }
}
