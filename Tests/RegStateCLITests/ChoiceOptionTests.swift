import Foundation
import Testing
@testable import regstate

/// Every option whose value is one of a fixed set: each listed value parses, anything else is a usage error that
/// lists the values.
@Suite("CLI: options with a fixed set of values")
struct ChoiceOptionTests {
    static let options: [(name: String, values: [String], listed: String)] = [
        ("--platform", ["native", "web"], "native or web"),
        ("--dpop", ["off", "auto", "required"], "off, auto or required"),
        ("--sim-dpop", ["off", "allowed", "required"], "off, allowed or required"),
        ("--par", ["off", "auto", "required"], "off, auto or required"),
        ("--sim-par", ["off", "offered", "required"], "off, offered or required"),
    ]

    @Test("each listed value parses; an unknown one (or the simulator's advertised-only) is refused, naming the values",
          arguments: ChoiceOptionTests.options.map(\.name))
    func choices(name: String) throws {
        let option = try #require(Self.options.first { $0.name == name })
        for value in option.values {
            #expect(throws: Never.self) { try CLIOptions.parse([name, value], environment: [:]) }
        }
        for value in ["", "ON", "maybe", "advertised-only"] where !option.values.contains(value) {
            #expect(throws: UsageError("option \(name) must be \(option.listed), not '\(value)'")) {
                try CLIOptions.parse([name, value], environment: [:])
            }
        }
    }
}
