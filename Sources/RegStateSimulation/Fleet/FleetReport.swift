import Foundation

/// What the provider saw in a fleet run, and the checks on it (issue 46): the backoff per install, the herd at
/// recovery, every install back, the renewal waves one and two lifetimes later, and jittered holds.
public struct FleetReport: Sendable {
    /// The run's options.
    public let options: FleetOptions
    /// Token-endpoint requests per virtual second.
    public let requests: [Int]
    /// Grants answered with tokens per virtual second.
    public let renewals: [Int]
    /// Discovery requests (one per engine, at its first renewal).
    public let discoveryRequests: Int
    /// API calls the apps made.
    public let calls: Int
    /// The token-endpoint rate over the lifetime before the outage, requests per second.
    public let steadyRate: Double
    /// The highest rate over any 10-s window in the 15 minutes after the provider came back, requests per second.
    public let recoveryPeak: Double
    /// The highest rate over any 10-s window during the outage.
    public let outagePeak: Double
    /// Installs that attempted sooner than their backoff allows, and the attempts.
    public let earlyInstalls: Int, earlyAttempts: Int
    /// Installs whose failures spanned the outage, and the latest of them back after the recovery (seconds), and
    /// those never back.
    public let waitedOut: Int, latestBack: TimeInterval, neverBack: Int
    /// For one and two lifetimes after the recovery: the renewal rate's peak (5-minute bins) over its mean.
    public let renewalPeakOverMean: [Double]
    /// The jitter factors seen: how many, the share within 1 % of the nominal step, the extremes.
    public let jitterCount: Int, jitterUnjittered: Double, jitterRange: ClosedRange<Double>

    init(options: FleetOptions, provider: FleetProvider, jitterFactors: [Double], calls: Int) {
        self.options = options
        requests = provider.requests
        renewals = provider.renewals
        discoveryRequests = provider.discoveryRequests
        self.calls = calls
        let start = Int(options.outageStart), recovery = Int(options.recovery), end = Int(options.end)
        // The last lifetime before the outage: the renewals are stationary by then.
        let steadyFrom = max(0, start - Int(options.tokenLifetime))
        steadyRate = Double(requests[steadyFrom..<start].reduce(0, +)) / Double(start - steadyFrom)
        let requests = provider.requests
        func peak(_ range: Range<Int>) -> Double {
            var best = 0
            var window = 0
            for second in range {
                window += requests[second]
                if second - 10 >= range.lowerBound { window -= requests[second - 10] }
                best = max(best, window)
            }
            return Double(best) / 10
        }
        recoveryPeak = peak(recovery..<min(end, recovery + 900))
        outagePeak = peak(start..<recovery)
        let ledgers = provider.installs
        earlyInstalls = ledgers.filter { $0.earlyAttempts > 0 }.count
        earlyAttempts = ledgers.reduce(0) { $0 + $1.earlyAttempts }
        let waited = ledgers.filter(\.waitedOutOutage)
        waitedOut = waited.count
        latestBack = waited.compactMap(\.backAt).map { $0 - options.recovery }.max() ?? 0
        neverBack = ledgers.filter { ($0.lastFailure.map { $0 < options.recovery } ?? false) && $0.backAt == nil }.count
        let lifetime = Int(options.tokenLifetime)
        let renewals = provider.renewals
        renewalPeakOverMean = [1, 2].map { generation in
            let from = recovery + lifetime * (2 * generation - 1) / 2
            let to = min(end, from + lifetime)
            guard to - from >= 300 else { return 0 }
            let bins = stride(from: from, to: to - 299, by: 300).map { renewals[$0..<($0 + 300)].reduce(0, +) }
            let mean = Double(bins.reduce(0, +)) / Double(bins.count)
            return mean > 0 ? Double(bins.max() ?? 0) / mean : 0
        }
        jitterCount = jitterFactors.count
        jitterUnjittered = jitterFactors.isEmpty ? 0
            : Double(jitterFactors.filter { abs($0 - 1) < 0.01 }.count) / Double(jitterFactors.count)
        jitterRange = (jitterFactors.min() ?? 1)...(jitterFactors.max() ?? 1)
    }

    /// The longest an install may take to be back after the recovery: the longest hold (300 s + 20 %, or the
    /// maintenance page's `Retry-After`) and its app's next call after it.
    public var backBound: TimeInterval {
        max(360, TimeInterval(options.outageRetryAfter ?? 0)) + options.callPeriod.upperBound * 1.1
    }

    /// The checks that failed (empty: the fleet kept every promise).
    public var violations: [String] {
        var found: [String] = []
        if earlyInstalls > 0 {
            found.append("fleet-backoff: \(earlyInstalls) installs made \(earlyAttempts) attempts sooner than their backoff allows")
        }
        if recoveryPeak > 3 * steadyRate {
            found.append(String(format: "fleet-recovery-peak: %.1f req/s over 10 s at recovery > 3 × the steady %.2f req/s",
                                recoveryPeak, steadyRate))
        }
        if neverBack > 0 || latestBack > backBound {
            found.append(String(format: "fleet-back: %d installs never back, the latest back after %.0f s (bound %.0f s)",
                                neverBack, latestBack, backBound))
        }
        for (index, ratio) in renewalPeakOverMean.enumerated() where ratio > 1.5 {
            found.append(String(format: "fleet-renewal-spread: %d lifetime(s) after recovery the renewal peak is %.2f × its mean",
                                index + 1, ratio))
        }
        if jitterCount < 100 || jitterUnjittered > 0.2 || jitterRange.lowerBound < 0.8 - 1e-6 || jitterRange.upperBound > 1.2 + 1e-6 {
            found.append(String(format: "fleet-jitter: %d holds, %.0f %% unjittered, factors %.3f...%.3f",
                                jitterCount, jitterUnjittered * 100, jitterRange.lowerBound, jitterRange.upperBound))
        }
        return found
    }

    /// The summary lines.
    public var summary: [String] {
        [String(format: "fleet %@ installs %d calls %d steady %.2f req/s outage-peak %.1f req/s recovery-peak %.1f req/s (%.2f × steady)",
                options.policyOn ? "policy" : "baseline", options.installs, calls, steadyRate, outagePeak, recoveryPeak,
                steadyRate > 0 ? recoveryPeak / steadyRate : 0),
         String(format: "  early attempts %d (installs %d)  waited out %d, latest back %.0f s, never back %d  renewal peak/mean %.2f, %.2f  jitter %d holds, %.0f %% unjittered",
                earlyAttempts, earlyInstalls, waitedOut, latestBack, neverBack, renewalPeakOverMean[0], renewalPeakOverMean[1],
                jitterCount, jitterUnjittered * 100),
         "  token requests \(requests.reduce(0, +)), renewals \(renewals.reduce(0, +)), discovery \(discoveryRequests)"]
    }

    /// Token-endpoint requests per second, averaged over 10-s windows: `seconds,requests_per_second` lines.
    public var series: [(time: Int, rate: Double)] {
        stride(from: 0, to: Int(options.end) - 9, by: 10).map { start in
            (start, Double(requests[start..<(start + 10)].reduce(0, +)) / 10)
        }
    }
}
