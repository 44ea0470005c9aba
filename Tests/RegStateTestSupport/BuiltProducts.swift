import Foundation

/// Finds the package's own files and built executables from inside a test process, for the tests that run the built
/// `regstate` binary or the crash probe as child processes.
public enum BuiltProducts {
    /// The package root: the nearest directory above this file that holds `Package.swift`.
    public static var packageRoot: URL? {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.pathComponents.count > 1 {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    /// The built executable `name`: next to the test bundle (where `swift test` builds it), else in the package's
    /// `.build/debug`.
    public static func executable(_ name: String) -> URL? {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            let directory = URL(fileURLWithPath: first).deletingLastPathComponent()
            candidates += [directory, directory.deletingLastPathComponent()]
        }
        candidates += [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let packageRoot { candidates.append(packageRoot.appendingPathComponent(".build/debug", isDirectory: true)) }
        return candidates.map { $0.appendingPathComponent(name) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
