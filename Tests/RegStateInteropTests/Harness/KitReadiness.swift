import Foundation
import Testing

/// Whether a kit in `Tests/Peers` can run here, decided once per test process by its own `start.sh --prepare`.
///
/// `--prepare` takes a kit's first-use steps (the Debian packages through `Scripts/setup.sh`, the Python environment
/// from PyPI) and starts nothing. Its messages go to the test output as it runs, so a first `swift test` says what it
/// installs and how long it took instead of waiting minutes in silence. The answer feeds the interop tests' condition
/// traits (``Testing/Trait/provider(_:)``, ``Testing/Trait/kit(_:)``): a kit that cannot run skips its tests, reported
/// as skipped; under `CI=true` the tests run anyway, and their provider's failure to start fails them.
actor KitReadiness {
    static let shared = KitReadiness()

    private var answers: [String: Task<Bool, Never>] = [:]

    /// Whether `kit` can run here (always `true` under `CI=true`, after the same attempt and its messages).
    func ready(_ kit: PeerKit) async -> Bool {
        if let answer = answers[kit.name] { return await answer.value }
        let answer = Task { await Self.prepare(kit) }
        answers[kit.name] = answer
        return await answer.value
    }

    private static func prepare(_ kit: PeerKit) async -> Bool {
        let reason: String
        do {
            let script = try kit.script("start.sh")
            let output = try await ChildProcess.run("/bin/bash", [script, "--prepare"], timeout: PeerKit.firstStartTimeout,
                                                    passingStderr: true)
            if output.status == 0 { return true }
            reason = "start.sh --prepare exited \(output.status) (its messages are above)"
        } catch {
            reason = "\(error)"
        }
        let consequence = InteropAvailability.isCI ? "with CI=true its tests run and fail" : "its tests are skipped"
        FileHandle.standardError.write(Data("interop: the \(kit.name) kit cannot run here: \(reason); \(consequence)\n".utf8))
        return InteropAvailability.isCI
    }
}
