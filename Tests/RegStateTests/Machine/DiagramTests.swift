import Foundation
import Testing
import RegStateTestSupport
@testable import RegState

@Suite("Diagrams")
struct DiagramTests {
    static var diagramURL: URL {
        (BuiltProducts.packageRoot ?? URL(fileURLWithPath: ".")).appendingPathComponent("Diagrams/state-machine.md")
    }

    @Test("the committed state diagram is the one the transition function draws")
    func diagramMatchesCode() throws {
        let generated = TransitionTable.markdown()
        if ProcessInfo.processInfo.environment["REGSTATE_WRITE_DIAGRAMS"] == "1" {
            try Data(generated.utf8).write(to: Self.diagramURL)
        }
        let committed = try String(contentsOf: Self.diagramURL, encoding: .utf8)
        #expect(committed == generated, "Diagrams/state-machine.md is stale: run REGSTATE_WRITE_DIAGRAMS=1 swift test --filter DiagramTests")
    }

    @Test("the diagram shows every letter of the seed")
    func everyLetterAppears() {
        let text = TransitionTable.markdown()
        for title in ["Active A", "Active B", "Active C", "Active H", "Registration Required D", "Error E", "Error F",
                      "Awaiting Confirmation G"] {
            #expect(text.contains(title), "\(title)")
        }
    }
}
