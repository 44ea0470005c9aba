import Foundation
import RegState
import RegStateTesting
import RegStateSimulator

// Figures for the paths an app hits on every launch and every API call. Run in release:
//   Scripts/bench.sh (release build in .build-release; this plus the CLI as a whole process)
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

// `RegStateBenchmarks launch` or `RegStateBenchmarks callers`: that group of figures alone (each with its floor).
if let only = CommandLine.arguments.dropFirst().first {
    try await EngineBenchmarks.run(only: only, scratch: scratch)
    exit(0)
}

try IDTokenValidationBenchmark.run()
try DPoPProofBenchmark.run()
print("")
try await EngineBenchmarks.run(scratch: scratch)
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

print(String(format: "journal append / in-memory write: %.0f×   store write / in-memory write: %.0f×",
             journalAppend.median / memoryWrite.median, storeWrite.median / memoryWrite.median))
print(String(format: "one transition: %.2f µs", transition.median / 1_000))
