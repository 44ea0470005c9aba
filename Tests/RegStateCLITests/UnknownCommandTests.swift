import Testing
@testable import regstate

/// A mistyped command names the one the person most likely meant, and only when one is near.
@Suite("CLI: an unknown command suggests the nearest")
struct UnknownCommandTests {
    @Test("a near miss names the command", arguments: [
        ("statu", "status"), ("stauts", "status"), ("logut", "logout"), ("clear", "clear-state"),
        ("ongoing", "ongoing-access"), ("evnts", "events"), ("update-tokn", "update-token"),
    ])
    func nearMiss(typed: String, meant: String) {
        #expect(throws: UsageError("unknown command '\(typed)' (did you mean \(meant)?)")) {
            try CLIOptions.parse([typed], environment: [:])
        }
    }

    @Test("nothing near: no suggestion", arguments: ["frobnicate", "x", "zzz"])
    func nothingNear(typed: String) {
        #expect(throws: UsageError("unknown command '\(typed)'")) { try CLIOptions.parse([typed], environment: [:]) }
    }
}
