import Foundation

/// How the person at the terminal started this tool, so that every command a hint prints can be typed as printed:
/// `regstate` when it was found on the `PATH`, `swift run regstate` when SwiftPM ran it from the package in the
/// current directory, else the path it was started with.
struct Invocation: Sendable, Equatable {
    /// Where the words come from: given, or worked out from how the process was started.
    private enum Source: Sendable, Equatable {
        case words(String)
        case started(argument0: String, currentDirectory: String?)
    }

    private let source: Source

    /// An invocation typed as `tool`.
    init(tool: String) {
        source = .words(tool)
    }

    private init(_ source: Source) {
        self.source = source
    }

    /// A tool on the `PATH` (what the in-process tests and the README's transcript use).
    static let onPath = Invocation(tool: "regstate")

    /// The invocation of a process started as `argument0` in `currentDirectory`; worked out when a hint first needs
    /// it (``tool``), so a command that prints none never looks at the working directory.
    ///
    /// - Parameters:
    ///   - argument0: The program path as the process received it (`regstate`, `.build/debug/regstate`, or the
    ///     absolute path `swift run` passes).
    ///   - currentDirectory: The working directory; `nil` reads the process's.
    static func detect(argument0: String, currentDirectory: String? = nil) -> Invocation {
        Invocation(.started(argument0: argument0, currentDirectory: currentDirectory))
    }

    /// The words that run the tool, shell-quoted where needed.
    var tool: String {
        switch source {
        case .words(let tool): tool
        case .started(let argument0, let currentDirectory): Self.tool(argument0, currentDirectory)
        }
    }

    private static func tool(_ argument0: String, _ currentDirectory: String?) -> String {
        guard argument0.utf8.contains(UInt8(ascii: "/")) else { return "regstate" }
        // `swift run` starts the product by its path under the package's .build directory (relative to the
        // directory it was typed in, or absolute), from the package root.
        let directory = currentDirectory ?? FileManager.default.currentDirectoryPath
        let root = directory.hasSuffix("/") ? directory : directory + "/"
        let underBuild = argument0.hasPrefix(".build/") || argument0.hasPrefix(root + ".build/")
        if underBuild, FileManager.default.fileExists(atPath: root + "Package.swift") { return "swift run regstate" }
        return ShellWord.quoted(argument0)
    }

    /// The command line that runs `words` (a command and its arguments) on the same session as this run: the tool,
    /// then `words`, then `sessionArguments` (the options that choose the store and the provider).
    func typed(_ words: String, _ sessionArguments: [String] = []) -> String {
        ([tool, words] + sessionArguments.map(ShellWord.quoted)).joined(separator: " ")
    }
}
