import Foundation
import RegStateTestSupport
import Testing

/// One device (its own temporary `--store`) across several runs of the binary, remembering every output and every
/// token the device ever stored, so a test can prove no token was printed.
final class CLIScenario {
    /// The store directory of this scenario.
    let store: URL
    /// The folder under ``store`` whose `credentials` item holds the tokens: `secure` (the file store) or `keychain`
    /// (`--sim-keychain`: RegStateTesting's Keychain double behind the App Group lock).
    let secureFolder: String
    /// Options every run gets (`--sim-keychain` for the Keychain double).
    let extraArguments: [String]
    /// Every result so far.
    private(set) var results: [CLIResult] = []
    /// Every token the store held after some run.
    private(set) var secrets: Set<String> = []

    /// A fresh, empty store directory; with `keychain`, every run keeps its secrets in the Keychain double.
    init(keychain: Bool = false) throws {
        store = FileManager.default.temporaryDirectory
            .appendingPathComponent("regstate-cli-\(UUID().uuidString)", isDirectory: true)
        secureFolder = keychain ? "keychain" : "secure"
        extraArguments = keychain ? ["--sim-keychain"] : []
    }

    deinit {
        try? FileManager.default.removeItem(at: store)
    }

    /// Runs `regstate arguments… --store <store>` with `input`.
    @discardableResult
    func run(_ arguments: [String], input: String = "") async throws -> CLIResult {
        try record(await CLIProcess.run(arguments + extraArguments + ["--store", store.path], input: input))
    }

    /// Starts an interactive run; hand its result to ``record(_:)``.
    func start(_ arguments: [String]) throws -> CLIProcess {
        try CLIProcess(arguments + extraArguments + ["--store", store.path])
    }

    /// Keeps `result` and the tokens now stored.
    @discardableResult
    func record(_ result: CLIResult) throws -> CLIResult {
        results.append(result)
        secrets.formUnion(try storedSecrets())
        return result
    }

    /// Registers through the social walkthrough and checks it ended in Active H.
    @discardableResult
    func registerSocially(as email: String = "alice@example.com", _ extra: [String] = []) async throws -> CLIResult {
        let result = try await run(extra, input: "1\n\(email)\n1\n")
        #expect(result.status == 0, "walkthrough failed: \(result.stderr)")
        #expect(result.stdout.contains("Active H"))
        return result
    }

    /// Registers by email through the walkthrough in a child process: reads the code from the simulated inbox line,
    /// types it and confirms. Returns the walkthrough's result (status 0 expected).
    func registerByEmail(_ email: String = "carol@example.com") async throws -> CLIResult {
        let child = try start([])
        child.send("2\n\(email)\n")
        let prompts = try await child.waitForStderr(containing: "Code (r to resend, c to cancel): ")
        let inbox = try #require(prompts.split(separator: "\n").first { $0.hasPrefix("inbox") })
        let code = try #require(inbox.split(separator: " ").last.map(String.init))
        #expect(code.allSatisfy(\.isNumber) && !code.isEmpty)
        child.send("\(code)\n1\n")
        let walkthrough = try record(try await child.finish())
        #expect(walkthrough.status == 0, "\(walkthrough.stderr)")
        return walkthrough
    }

    /// The token strings in `<store>/<secureFolder>/credentials`, and the device code of a pending sign-in on
    /// another device, if any.
    func storedSecrets() throws -> Set<String> {
        var secrets: Set<String> = []
        let device = store.appendingPathComponent("\(secureFolder)/pending_device_authorization")
        if let data = FileManager.default.contents(atPath: device.path),
           let code = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["deviceCode"] as? String {
            secrets.insert(code)
        }
        let url = store.appendingPathComponent("\(secureFolder)/credentials")
        guard let data = FileManager.default.contents(atPath: url.path) else { return secrets }
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let keys = ["access_token", "refresh_token", "id_token", "security_token"]
        return secrets.union(keys.compactMap { object[$0] as? String }.filter { $0.count >= 8 })
    }

    /// Fails when any output of any run contains a token the store ever held.
    func expectNoSecretsPrinted(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!secrets.isEmpty, "no tokens were stored", sourceLocation: sourceLocation)
        for result in results {
            for secret in secrets {
                #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret),
                        "a token appeared in the output", sourceLocation: sourceLocation)
            }
        }
    }
}
