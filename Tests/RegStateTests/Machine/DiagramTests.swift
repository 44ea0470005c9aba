import Foundation
import Testing
import RegStateTestSupport
@testable import RegState

@Suite("Diagrams")
struct DiagramTests {
    static func url(_ name: String) -> URL {
        (BuiltProducts.packageRoot ?? URL(fileURLWithPath: ".")).appendingPathComponent("Diagrams/\(name)")
    }

    @Test("the committed state diagrams (Mermaid and DOT) are the ones the transition function draws",
          arguments: [("state-machine.md", TransitionTable.markdown()), ("state-machine.dot", TransitionTable.dot())])
    func diagramMatchesCode(name: String, generated: String) throws {
        if ProcessInfo.processInfo.environment["REGSTATE_WRITE_DIAGRAMS"] == "1" {
            try Data(generated.utf8).write(to: Self.url(name))
        }
        let committed = try String(contentsOf: Self.url(name), encoding: .utf8)
        #expect(committed == generated, "Diagrams/\(name) is stale: run REGSTATE_WRITE_DIAGRAMS=1 swift test --filter DiagramTests")
    }

    @Test("every edge the engine can take from launch is drawn (no state is a false dead end)")
    func everyReachableEdgeIsDrawn() {
        let drawn = TransitionTable.drawnEdges()
        var seen: [RegState] = []
        var queue: [RegState] = [.unsettled]
        var missing: [String] = []
        while let state = queue.popLast() {
            guard !seen.contains(state) else { continue }
            seen.append(state)
            for event in TransitionTable.events {
                guard let transition = TransitionTable.transition(from: state, on: event) else { continue }
                if !seen.contains(transition.state) { queue.append(transition.state) }
                if let edge = TransitionTable.edge(from: state, on: event), !drawn.contains(edge) {
                    missing.append("\(edge.from) --> \(edge.to) : \(edge.label)")
                }
            }
        }
        #expect(missing.isEmpty, "edges the engine takes but the diagram lacks: \(missing)")
        #expect(seen.count > TransitionTable.states.count / 2, "the walk reached \(seen.count) states")
        // Every state reached is drawn with at least one way out.
        let sources = Set(drawn.map(\.from))
        for state in seen where !sources.contains(TransitionTable.label(state)) {
            Issue.record("\(TransitionTable.label(state)) is drawn as a dead end")
        }
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
