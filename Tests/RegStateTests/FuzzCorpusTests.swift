import Foundation
import RegStateTestSupport
import Testing

/// Every input in the fuzz corpus — the seeds and the regression inputs of every finding — replayed through its
/// target by the plain (unsanitized) build of `RegStateFuzz`: none may crash or hang. The child is awaited on a thread
/// of its own, never on the concurrency pool: a replay takes seconds, and a blocked pool thread (there are as many as
/// cores) starves every test running beside it in this process (the loopback listener's test timed out so in CI).
@Suite("Fuzz corpus replay")
struct FuzzCorpusTests {
    @Test("the corpus of each fuzz target replays without a crash",
          arguments: ["jwt", "jwks", "responses", "callback", "journal", "store", "dpop", "jws", "pendinglogin", "hosttoken",
                     "discovery", "printed"])
    func replay(_ target: String) async throws {
        let fuzz = try #require(BuiltProducts.executable("RegStateFuzz"), "RegStateFuzz not built")
        let root = try #require(BuiltProducts.packageRoot)
        let corpus = root.appendingPathComponent("Tests/Fuzz/Corpus/\(target)")
        let inputs = try FileManager.default.contentsOfDirectory(atPath: corpus.path)
        #expect(!inputs.isEmpty)
        let process = Process()
        process.executableURL = fuzz
        process.arguments = [target, corpus.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            let reader = Thread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }
            reader.start()
        }
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(printed == "\(target): \(inputs.count) input(s) replayed\n")
    }
}
