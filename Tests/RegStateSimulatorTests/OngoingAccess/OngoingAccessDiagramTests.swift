import Foundation
import RegState
import RegStateOngoingAccess
import RegStateSimulator
import Testing

@Suite("Diagrams/ongoing-access.md")
struct OngoingAccessDiagramTests {
    /// The `App->>Provider` requests of the diagram, in order, as `"METHOD /path"`.
    static func drawnRequests() throws -> [String] {
        var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            try #require(root.path != "/", "no Package.swift above \(#filePath)")
            root.deleteLastPathComponent()
        }
        let text = try String(contentsOf: root.appendingPathComponent("Diagrams/ongoing-access.md"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            guard let arrow = line.range(of: "App->>Provider: ") else { return nil }
            let words = line[arrow.upperBound...].split(separator: " ")
            return words.count >= 2 ? "\(words[0]) \(words[1])" : nil
        }
    }

    @Test("The provider receives exactly the drawn requests, in the drawn order")
    func diagramMatchesTheFlow() async throws {
        let harness = try await OngoingAccessHarness()
        let service = await harness.service()
        let first = try await service.authorizeOngoingAccess()
        _ = try await service.accounts()
        _ = try await service.files()
        _ = try await service.file(id: "file-1")
        harness.clock.advance(by: 3600)
        let restored = try await harness.service().authorizeOngoingAccess(oAuthToken: first.oAuthToken)
        #expect(restored.refreshed)
        let drawn = try Self.drawnRequests()
        #expect(drawn.count == 9)
        #expect(await harness.provider.requestLog == drawn)
    }
}
