import Foundation
import RegState
import RegStateSimulator
import RegStateTesting
import Testing

/// The code the README and the two "Testing with the simulator" articles show, compiled and run here; each article's
/// code block is checked to be exactly a region of this file (between `// docs: NAME` and `// docs: end`).
@Suite("Documented usage: the simulator in code")
struct DocumentedUsageTests {
    @Test("social registration on the simulator, then an expired token renewed, as the docs show it")
    func socialRegistration() async throws {
        // docs: social
        let device = try SimulatedDevice()      // a simulated provider and backend, in-memory store, manual clock
        let service = device.launch()           // a RegStateService wired to them, as an app launch builds it
        #expect(await service.start() == .registrationRequired)                            // D

        let url = try await service.beginSocialRegistration()        // the URL the app opens in a browser
        let redirect = try await device.simulator.authorize(url, as: "alice@example.com")  // the user signs in
        let profile = try await service.completeSocialRegistration(callback: redirect)     // G
        try await service.confirmRegistration()                                            // H
        #expect(profile.email == "alice@example.com")

        device.clock.advance(by: 7_200)         // the access token expires, no waiting
        #expect(await device.launch().start().letter == "C")         // relaunch: renewed with the refresh token
        // docs: end
    }

    @Test("passwordless registration with the simulated inbox, as the docs show it")
    func passwordlessRegistration() async throws {
        // docs: passwordless
        let device = try SimulatedDevice { world in world.maxDevicesPerUser = 5 }   // knobs: lifetimes, offline, …
        let service = device.launch()
        await service.start()
        try await service.beginPasswordlessRegistration(email: "bob@example.com")
        let code = try #require(await device.simulator.latestCode(for: "bob@example.com"))  // the simulated inbox
        try await service.completePasswordlessRegistration(code: code)                      // G
        try await service.confirmRegistration()                                             // H
        #expect(await service.state.letter == "H")
        // docs: end
    }

    @Test("every code block of the documents that show simulator code is a region of this file")
    func documentsShowThisCode() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let regions = Self.regions(in: source)
        #expect(Set(regions.keys) == ["social", "passwordless"])
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for document in Self.documents {
            let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
            let blocks = Self.swiftBlocks(in: text).filter { $0.contains("SimulatedDevice") }
            #expect(!blocks.isEmpty, "\(document) shows no simulator code")
            for block in blocks {
                #expect(regions.values.contains(block), "\(document): a code block is not in DocumentedUsageTests.swift")
            }
        }
    }

    /// The documents whose simulator code must be this file's.
    static let documents = [
        "README.md",
        "Sources/RegState/RegState.docc/TestingWithTheSimulator.md",
        "Sources/RegStateSimulator/RegStateSimulator.docc/TestingWithTheSimulator.md",
    ]

    /// The `// docs: NAME` … `// docs: end` regions, dedented by their first line's indentation.
    static func regions(in source: String) -> [String: String] {
        var regions: [String: String] = [:]
        var name: String?
        var lines: [Substring] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("// docs: ") {
                let marker = String(trimmed.dropFirst("// docs: ".count))
                if marker == "end", let open = name {
                    let indent = lines.first.map { $0.prefix { $0 == " " }.count } ?? 0
                    regions[open] = lines.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }
                        .joined(separator: "\n")
                    name = nil
                } else {
                    name = marker
                    lines = []
                }
            } else if name != nil {
                lines.append(line)
            }
        }
        return regions
    }

    /// The bodies of the document's ```swift blocks.
    static func swiftBlocks(in text: String) -> [String] {
        text.components(separatedBy: "```swift\n").dropFirst().compactMap { part in
            part.components(separatedBy: "\n```").first
        }
    }
}
