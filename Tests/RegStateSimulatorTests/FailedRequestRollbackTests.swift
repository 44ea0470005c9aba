import Foundation
import RegState
import RegStateSimulator
import Testing

@Suite("A failed request changes nothing")
struct FailedRequestRollbackTests {
    @Test("a refresh whose world cannot be saved answers 500 and does not retire the refresh token")
    func failedSaveRollsBack() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sim-rollback-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let harness = try SimulatorHarness(persistence: directory)
        let tokens = try await harness.signIn()
        let refreshToken = try #require(tokens.refreshToken)

        // A directory where the world file should be: the next save fails.
        let worldFile = directory.appendingPathComponent("simulator-world.json")
        try? FileManager.default.removeItem(at: worldFile)
        try FileManager.default.createDirectory(at: worldFile, withIntermediateDirectories: false)
        let failed = try await harness.refresh(refreshToken)
        #expect(failed.status == 500)
        #expect(failed.jsonBody?["error_description"]?.stringValue?.contains(worldFile.path) == true)

        // Once the world can be saved again, the same refresh token still works: it was never retired.
        try FileManager.default.removeItem(at: worldFile)
        let retried = try await harness.refresh(refreshToken)
        #expect(retried.status == 200)
    }
}
