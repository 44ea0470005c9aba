import Foundation
import RegState
import RegStateTesting
import RegStateSimulator

// Figures for the paths an app hits on every launch and every API call. Run in release:
//   swift run -c release RegStateBenchmarks
// Machines here are shared and noisy: compare ratios within one run, not absolute numbers across runs.

/// Runs `body` `iterations` times and returns the median and 90th-percentile wall time per call, in microseconds.
func measure(_ name: String, iterations: Int, _ body: () async throws -> Void) async rethrows -> (median: Double, p90: Double) {
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000)
    }
    samples.sort()
    let result = (samples[samples.count / 2], samples[samples.count * 9 / 10])
    print(String(format: "%-52@ median %9.1f µs   p90 %9.1f µs   (n=%d)", name as NSString, result.0, result.1, iterations))
    return result
}

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("regstate-bench-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: scratch) }

print("RegState benchmarks (\(ProcessInfo.processInfo.activeProcessorCount) cores)")

try IDTokenValidationBenchmark.run()
try DPoPProofBenchmark.run()
print("")

// The pure transition function: the cost of the machine itself.
let stored = StoredSession(registrationType: .social, expiresAt: Date(timeIntervalSince1970: 1_900_000_000),
                           profile: Profile(subject: "s", issuer: "https://idp.example"))
let transition = await measure("transition (launch → inspect → B), 1000 per call", iterations: 200) {
    for _ in 0..<500 {
        _ = try? RegStateMachine.transition(from: .active(stored.session(.stored)), on: .launched(isNative: true))
        _ = try? RegStateMachine.transition(from: .unsettled, on: .storedTokensInspected(.valid(stored)))
    }
}

// Durable writes: what a renewal and a journal line cost on this disk.
let store = try FileSecureStore(directory: scratch.appendingPathComponent("secure"))
let record = Data(repeating: 0x41, count: 1_400)
let storeWrite = try await measure("file store atomic write (1.4 KB, fsync + rename)", iterations: 200) {
    try store.set(record, forKey: "credentials")
}
let journal = try FileJournal(url: scratch.appendingPathComponent("journal.log"))
let line = try JournalEntry(sequence: 1, recordedAt: Date(), event: .storedTokensInspected(.valid(stored))).encoded()
let journalAppend = try await measure("journal append (one line, fsync)", iterations: 200) {
    try journal.append(line)
}
let inMemory = InMemorySecureStore()
let memoryWrite = try await measure("in-memory store write", iterations: 2_000) {
    try inMemory.set(record, forKey: "credentials")
}

// A launch that settles on B, end to end, with the file store and journal on disk.
let clock = ManualClock(start: Date())
var simulatorConfiguration = SimulatorConfiguration()
simulatorConfiguration.signingKey = try SystemCrypto().generateRSAPrivateKey(bits: 2048)
let simulator = try Simulator(configuration: simulatorConfiguration, clock: clock)
let configuration = RegStateConfiguration(
    oidc: OIDCConfiguration(issuer: URL(string: "https://idp.regstate.sim")!, clientID: "regstate-cli",
                            redirectURI: URL(string: "com.example.app:/callback")!),
    backendURL: URL(string: "https://api.regstate.sim"))
let device = scratch.appendingPathComponent("device")
func dependencies() throws -> RegStateDependencies {
    var dependencies = try RegStateDependencies.onDisk(at: device, transport: simulator.transport)
    dependencies.clock = clock
    return dependencies
}
let first = RegStateService(configuration: configuration, dependencies: try dependencies())
await first.start()
let url = try await first.beginSocialRegistration()
try await first.completeSocialRegistration(callback: try await simulator.authorize(url, as: "alice@example.com"))
try await first.confirmRegistration()
let launch = try await measure("launch to Active B (disk store + journal)", iterations: 100) {
    let service = RegStateService(configuration: configuration, dependencies: try dependencies())
    _ = await service.start()
}

// Renewal under contention: 50 callers on an expired token share one refresh grant.
var grants: [Int] = []
let renewal = try await measure("50 concurrent callers, expired token → 1 refresh", iterations: 20) {
    clock.advance(by: 3_600)
    await simulator.resetCounters()
    let service = RegStateService(configuration: configuration, dependencies: try dependencies())
    _ = await service.start()   // renews at launch (C)
    clock.advance(by: 3_600)
    try await withThrowingTaskGroup(of: String.self) { group in
        for _ in 0..<50 { group.addTask { try await service.validAccessToken() } }
        try await group.waitForAll()
    }
    grants.append(await simulator.refreshGrantCount)
}

print("")
print(String(format: "journal append / in-memory write: %.0f×   store write / in-memory write: %.0f×",
             journalAppend.median / memoryWrite.median, storeWrite.median / memoryWrite.median))
print(String(format: "launch to B / store write: %.1f×   one transition: %.2f µs",
             launch.median / storeWrite.median, transition.median / 1_000))
print("refresh grants per round of 50 callers (launch renewal + the 50): \(Set(grants).sorted())")
print(String(format: "50-caller round, median: %.1f ms", renewal.median / 1_000))
