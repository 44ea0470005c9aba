import Foundation
import RegStateSimulation

/// `regstate-sim --world fleet`: the fleet world (``FleetRun``).
///   regstate-sim --world fleet [--installs N] [--seed S] [--series FILE]   the policy and the baseline side by side
///   regstate-sim --world fleet --seeds A..B [--installs N] --quiet          the policy run per seed (Scripts/mutate.sh)
///   --outage SECONDS (600), --lifetime SECONDS (3600; the grace is half of it), --capacity REQ/S (40),
///   --no-retry-after (the outage page carries none)
enum FleetCommand {
    static func main(_ arguments: [String]) -> Int32 {
        var installs = 10_000, seeds: ClosedRange<UInt64> = 1...1, sideBySide = true, quiet = false
        var series: String?, outage: Double?, lifetime: Double?, capacity: Int?, retryAfter = true
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--world": _ = rest.popFirst()
            case "--installs":
                guard let value = rest.popFirst().flatMap(Int.init), value > 0 else { return usage() }
                installs = value
            case "--seed":
                guard let value = rest.popFirst().flatMap(UInt64.init) else { return usage() }
                seeds = value...value
            case "--seeds":
                let parts = (rest.popFirst() ?? "").components(separatedBy: "..")
                guard parts.count == 2, let low = UInt64(parts[0]), let high = UInt64(parts[1]), low <= high else { return usage() }
                seeds = low...high
                sideBySide = false
            case "--series": series = rest.popFirst()
            case "--outage": outage = rest.popFirst().flatMap(Double.init)
            case "--lifetime": lifetime = rest.popFirst().flatMap(Double.init)
            case "--capacity": capacity = rest.popFirst().flatMap(Int.init)
            case "--no-retry-after": retryAfter = false
            case "--quiet": quiet = true
            default: return usage()
            }
        }
        func options(_ seed: UInt64, policy: Bool) -> FleetOptions {
            var options = FleetOptions(seed: seed, installs: installs)
            if let lifetime {
                options.tokenLifetime = lifetime
                options.gracePeriod = lifetime / 2
                options.outageStart = 1.5 * lifetime
                options.afterRecovery = 2.5 * lifetime
            }
            if let outage { options.outageLength = outage }
            if let capacity { options.capacity = capacity }
            if !retryAfter { options.outageRetryAfter = nil }
            options.policyOn = policy
            return options
        }
        if !sideBySide {
            var failures = 0
            for seed in seeds {
                let outcome = FleetDriver.run(options(seed, policy: true))
                let violations = outcome.report?.violations ?? ["fleet-bounded-wait: the run stopped with every task waiting"]
                if violations.isEmpty {
                    if !quiet { print("seed \(seed) ok") }
                } else {
                    failures += 1
                    print("seed \(seed) FAILED digest fleet")
                    violations.forEach { print("  \($0)") }
                }
            }
            print("runs \(seeds.count) failures \(failures)")
            return failures == 0 ? 0 : 1
        }
        let seed = seeds.lowerBound
        let policy = FleetDriver.run(options(seed, policy: true))
        let baseline = FleetDriver.run(options(seed, policy: false))
        for (name, outcome) in [("policy", policy), ("baseline", baseline)] {
            guard let report = outcome.report else {
                print("\(name): the run did not finish")
                continue
            }
            report.summary.forEach { print($0) }
            print(String(format: "  cpu %.1f s, %.0f installs per CPU-second", outcome.cpuSeconds,
                         Double(installs) / max(outcome.cpuSeconds, 0.001)))
            report.violations.forEach { print("  \(name) check: \($0)") }
        }
        if let series, let policyReport = policy.report, let baselineReport = baseline.report {
            var text = "# regstate-sim --world fleet --installs \(installs) --seed \(seed): token-endpoint requests per second (10-s means)\n"
            text += "# outage \(Int(policyReport.options.outageStart))..\(Int(policyReport.options.recovery)) s; "
                + String(format: "peaks at recovery: policy %.1f, baseline %.1f req/s; steady %.2f req/s\n",
                         policyReport.recoveryPeak, baselineReport.recoveryPeak, policyReport.steadyRate)
            text += "seconds,policy,baseline\n"
            for (p, b) in zip(policyReport.series, baselineReport.series) {
                text += "\(p.time),\(String(format: "%.1f", p.rate)),\(String(format: "%.1f", b.rate))\n"
            }
            do {
                try text.write(toFile: series, atomically: true, encoding: .utf8)
            } catch {
                FileHandle.standardError.write(Data("regstate-sim: cannot write \(series): \(error)\n".utf8))
                return 73
            }
        }
        let passed = policy.report?.violations.isEmpty == true
        print(passed ? "fleet: every check holds with the policy" : "fleet: a check failed with the policy")
        return passed ? 0 : 1
    }

    static func usage() -> Int32 {
        FileHandle.standardError.write(Data("usage: regstate-sim --world fleet [--installs N] [--seed S | --seeds A..B] [--series FILE] [--outage S] [--lifetime S] [--capacity N] [--no-retry-after] [--quiet]\n".utf8))
        return 64
    }
}
