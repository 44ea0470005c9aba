import Foundation

/// How the person at the terminal started this tool, so that every command a hint prints can be typed as printed:
/// `regstate` when it was found on the `PATH`, `swift run regstate` when SwiftPM ran it from the package in the
/// current directory, else the path it was started with.
struct Invocation: Sendable, Equatable {
    /// The words that run the tool, shell-quoted where needed.
    let tool: String

    /// A tool on the `PATH` (what the in-process tests and the README's transcript use).
    static let onPath = Invocation(tool: "regstate")

    /// Works out the invocation from `argv[0]` and the current directory.
    ///
    /// - Parameters:
    ///   - argument0: The program path as the process received it (`regstate`, `.build/debug/regstate`, or the
    ///     absolute path `swift run` passes).
    ///   - currentDirectory: The working directory.
    static func detect(argument0: String, currentDirectory: String) -> Invocation {
        guard argument0.contains("/") else { return .onPath }
        // `swift run` starts the product by its path under the package's .build directory (relative to the
        // directory it was typed in, or absolute), from the package root.
        let root = currentDirectory.hasSuffix("/") ? currentDirectory : currentDirectory + "/"
        let underBuild = argument0.hasPrefix(".build/") || argument0.hasPrefix(root + ".build/")
        if underBuild, FileManager.default.fileExists(atPath: root + "Package.swift") {
            return Invocation(tool: "swift run regstate")
        }
        return Invocation(tool: ShellWord.quoted(argument0))
    }

    /// The command line that runs `words` (a command and its arguments) on the same session as this run: the tool,
    /// then `words`, then `sessionArguments` (the options that choose the store and the provider).
    func typed(_ words: String, _ sessionArguments: [String] = []) -> String {
        ([tool, words] + sessionArguments.map(ShellWord.quoted)).joined(separator: " ")
    }
}
