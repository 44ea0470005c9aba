import Foundation
import RegStateTestSupport

/// A provider kit of this repository: `Tests/Peers/<name>/` with its `start.sh` and the scripts that play the user.
///
/// The kits install what they need on first use (see `Tests/Peers/README.md`): a Python environment per kit in
/// ``cacheDirectory`` and, through `Scripts/setup.sh`, the Debian packages. This type computes the same paths as
/// `Tests/Peers/kit.sh`, so the harness finds a kit's Python where its start script made it.
struct PeerKit: Sendable {
    /// How long a start script may take: on first use it installs the kit's Python packages from PyPI (one to four
    /// minutes measured here, longer on a busy machine or a slow network), later starts take seconds.
    static let firstStartTimeout: Duration = .seconds(900)

    /// The kit's directory name under `Tests/Peers`.
    let name: String

    /// django-oauth-toolkit (``InteropPeer``).
    static let django = PeerKit(name: "django-oauth-toolkit")
    /// Glewlwyd (``GlewlwydPeer``).
    static let glewlwyd = PeerKit(name: "glewlwyd")
    /// The real browser: headless Chromium under Selenium (``RealBrowser``).
    static let browser = PeerKit(name: "browser")
    /// idpyoidc (``IdpyoidcPeer``).
    static let idpyoidc = PeerKit(name: "idpyoidc")

    /// `<package root>/Tests/Peers/<name>`, when it holds a `start.sh`.
    var directory: URL? {
        guard let root = BuiltProducts.packageRoot else { return nil }
        let directory = root.appendingPathComponent("Tests/Peers/\(name)", isDirectory: true)
        return FileManager.default.fileExists(atPath: directory.appendingPathComponent("start.sh").path) ? directory : nil
    }

    /// The path of the kit's script `file`.
    ///
    /// - Throws: ``InteropError/providerUnavailable(_:)`` when the kit or the script is missing.
    func script(_ file: String) throws -> String {
        guard let directory else { throw InteropError.providerUnavailable("no Tests/Peers/\(name)/start.sh in the package") }
        let path = directory.appendingPathComponent(file).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw InteropError.providerUnavailable("\(path) is missing or not executable")
        }
        return path
    }

    /// Where the kits keep what they install: `$REGSTATE_PEERS_CACHE`, else `$XDG_CACHE_HOME/regstate-peers`, else
    /// `~/.cache/regstate-peers`.
    static var cacheDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let cache = value("REGSTATE_PEERS_CACHE") { return cache }
        let base = value("XDG_CACHE_HOME") ?? ((value("HOME") ?? NSHomeDirectory()) + "/.cache")
        return base + "/regstate-peers"
    }

    /// The Python of the kit's environment (made by its `start.sh` on first use).
    var python: String { Self.cacheDirectory + "/\(name)/venv/bin/python" }
}

extension PeerKit {
    /// A provider `start.sh` started: where it listens, its state directory and the server's PID.
    struct Started: Sendable {
        var port: Int
        var stateDirectory: URL
        var pid: pid_t
    }

    /// Runs the kit's `start.sh PORT STATE_DIR [arguments]` on a free loopback port with a fresh state directory, and
    /// tries another port (three in all) when the failure says the port was taken (`portTaken` reads start.sh's
    /// explanation); any other failure is final.
    ///
    /// - Throws: ``InteropError/providerUnavailable(_:)`` with start.sh's explanation.
    func start(arguments: [String] = [], environment: [String: String],
               portTaken: (String) -> Bool) async throws -> Started {
        let startScript = try script("start.sh")
        var lastFailure = "no attempt"
        for _ in 0..<3 {
            let port = try PeerProcess.freePort()
            let state = FileManager.default.temporaryDirectory
                .appendingPathComponent("\(name)-peer-\(port)-\(UUID().uuidString.prefix(8))", isDirectory: true)
            // The first run makes the kit's venv (and installs system packages); later runs take seconds.
            let output = try await ChildProcess.run("/bin/bash", [startScript, String(port), state.path] + arguments,
                                                    environment: environment, timeout: Self.firstStartTimeout)
            if output.status == 0, let pid = pid_t(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return Started(port: port, stateDirectory: state, pid: pid)
            }
            lastFailure = "start.sh exited \(output.status): " + String(output.stderr.suffix(1_500))
            try? FileManager.default.removeItem(at: state)
            guard portTaken(output.stderr) else { break }
        }
        throw InteropError.providerUnavailable(lastFailure)
    }
}
