import Foundation
import RegState
import RegStateTestSupport
import Testing

/// A real browser: Debian's headless Chromium driven by Selenium (`Tests/Peers/browser/driver.py`, started by that
/// kit's `start.sh`) as a child process, one JSON command per line on its standard input and one answer per line on
/// its standard output. The browser lives as long as this value, so the provider's session cookies survive between
/// visits as in a person's browser; ``quit()`` closes it (ending its standard input does too).
///
/// The child is read on dedicated threads (``CLIProcess``); nothing here blocks the concurrency pool. Without
/// Chromium, its driver or the kit's Python environment the tests are skipped by their `.kit(.browser)` trait (under
/// `CI=true` they run, and a browser that does not start fails them with the reason).
final class RealBrowser {
    /// What the browser shows after a command.
    struct Page: CustomStringConvertible {
        /// The address bar.
        var url: String
        /// The page's title.
        var title: String
        /// The page's visible text (2,000 characters at most).
        var text: String
        /// ``signIn(_:until:as:typingPassword:screenshots:)``: whether the provider showed its password form.
        var askedPassword: Bool
        /// ``signIn(_:until:as:typingPassword:screenshots:)``: whether the password was typed.
        var typedPassword: Bool
        /// ``endSession(_:screenshots:)``: how many confirmation buttons were pressed.
        var confirmed: Int

        var description: String { "\(url) \"\(title)\": \(text.prefix(300))" }
    }

    /// The browser's version, as the driver reported it.
    let version: String
    private let child: CLIProcess
    private var nextID = 1

    /// How long the first start may take: on a fresh machine the kit makes its Python environment (about 30 s
    /// measured here) and may run `Scripts/setup.sh` for Chromium and its driver.
    static let startTimeout: TimeInterval = 600

    /// The reason the browser could not start, remembered so that later tests do not try again.
    private static let failure = LockedValue<String?>(nil)

    private init(child: CLIProcess, version: String) {
        self.child = child
        self.version = version
    }

    /// Starts the browser, or throws why not (the test's `.kit(.browser)` trait has skipped it where the kit cannot run).
    static func start() async throws -> RealBrowser {
        if let reason = failure.withLock({ $0 }) { try unavailable(reason) }
        let kit = try PeerKit.browser.script("start.sh")
        let child = try CLIProcess(shell: "exec /bin/bash '\(kit)'",
                                   currentDirectory: URL(fileURLWithPath: kit).deletingLastPathComponent())
        let line = try await child.stdoutLine(where: { $0.contains("\"id\": 0") }, what: "the driver's ready line",
                                              timeout: startTimeout)
        let answer = try parse(line)
        guard answer["ok"]?.boolValue == true, let version = answer["ready"]?.stringValue else {
            let reason = (answer["error"]?.stringValue ?? line) + " " + String(child.stderrSoFar.suffix(1_000))
            failure.withLock { $0 = reason }
            child.closeInput()
            _ = try? await child.finish()
            try unavailable(reason)
        }
        return RealBrowser(child: child, version: version)
    }

    private static func unavailable(_ reason: String) throws -> Never {
        throw InteropError.providerUnavailable("browser: \(reason)")
    }

    /// Opens `url` (an authorization URL; `nil`: goes on from the page shown) and plays the user until the address starts with `until` (the app's redirect
    /// URI): the password form is filled when `typingPassword` (otherwise the page stays where the provider asked),
    /// consent is granted, a "Continue" is pressed. Screenshots: `screenshots`-login.png of the first password form
    /// and `screenshots`-final.png of the last page.
    func signIn(_ url: URL?, until: URL, as account: (username: String, password: String), typingPassword: Bool = true,
                screenshots: URL? = nil) async throws -> Page {
        try await send(["op": "signIn", "url": url.map { .string($0.absoluteString) } ?? .null, "until": .string(until.absoluteString),
                        "username": .string(account.username), "password": .string(account.password),
                        "typePassword": .bool(typingPassword), "shots": screenshots.map { .string($0.path) } ?? .null])
    }

    /// Opens `url` as if typed into the address bar and waits for the page; `screenshot` (a .png path) when given.
    func open(_ url: URL, screenshot: URL? = nil) async throws -> Page {
        try await send(["op": "open", "url": .string(url.absoluteString), "shot": screenshot.map { .string($0.path) } ?? .null])
    }

    /// Opens an end-session URL and confirms the provider's question, if it asks one. Screenshots:
    /// `screenshots`-question.png of the provider's first page, `screenshots`-final.png of the last.
    func endSession(_ url: URL, screenshots: URL? = nil) async throws -> Page {
        try await send(["op": "endSession", "url": .string(url.absoluteString),
                        "shots": screenshots.map { .string($0.path) } ?? .null])
    }

    /// A sign-in on another device (RFC 8628) as its user does it: opens `url` (the verification URI), signs in as
    /// `account` when asked, types `userCode` where the provider asks for it, and answers its question with
    /// `decision` (`accept` or `deny`). Screenshots: `screenshots`-code.png, -question.png, -final.png.
    func approveDevice(_ url: URL, userCode: String, as account: (username: String, password: String),
                       decision: String = "accept", screenshots: URL? = nil) async throws -> Page {
        try await send(["op": "approveDevice", "url": .string(url.absoluteString), "userCode": .string(userCode),
                        "username": .string(account.username), "password": .string(account.password),
                        "decision": .string(decision), "shots": screenshots.map { .string($0.path) } ?? .null])
    }

    /// Closes the browser and waits for the driver to exit.
    func quit() async {
        child.send(line: #"{"id": -1, "op": "quit"}"#)
        child.closeInput()
        _ = try? await child.finish()
    }

    private func send(_ command: [String: JSONValue]) async throws -> Page {
        let id = nextID
        nextID += 1
        var command = command
        command["id"] = .number(Double(id))
        child.send(line: String(decoding: JSONValue.object(command).serialized(), as: UTF8.self))
        let marker = "\"id\": \(id),"
        let line = try await child.stdoutLine(where: { $0.contains(marker) }, what: "an answer to \(command["op"]?.stringValue ?? "?")")
        let answer = try Self.parse(line)
        let page = Page(url: answer["url"]?.stringValue ?? "", title: answer["title"]?.stringValue ?? "",
                        text: answer["text"]?.stringValue ?? "", askedPassword: answer["askedPassword"]?.boolValue ?? false,
                        typedPassword: answer["typedPassword"]?.boolValue ?? false,
                        confirmed: answer["confirmed"]?.intValue ?? 0)
        guard answer["ok"]?.boolValue == true else {
            throw InteropError.scriptFailed("browser: \(answer["error"]?.stringValue ?? line); at \(page)")
        }
        return page
    }

    private static func parse(_ line: String) throws -> [String: JSONValue] {
        guard let object = (try? JSONValue.parse(Data(line.utf8)))?.objectValue else {
            throw InteropError.scriptFailed("browser: not a JSON answer: \(line.prefix(300))")
        }
        return object
    }

    /// Where a test's screenshots go: `$REGSTATE_ARTIFACTS/browser/<name>/`, by default
    /// `<package>/.build/artifacts/browser/<name>/` (kept after the run, like the docs build's screenshot).
    static func artifacts(_ name: String) throws -> URL {
        let environment = ProcessInfo.processInfo.environment["REGSTATE_ARTIFACTS"].flatMap { $0.isEmpty ? nil : $0 }
        let root = try environment.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? #require(BuiltProducts.packageRoot).appendingPathComponent(".build/artifacts", isDirectory: true)
        let directory = root.appendingPathComponent("browser/\(name)", isDirectory: true)
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}

/// Runs `body` with a real browser of its own, and always closes it afterwards, also when `body` throws.
func withRealBrowser<Result>(_ body: (RealBrowser) async throws -> Result) async throws -> Result {
    let browser = try await RealBrowser.start()
    do {
        let result = try await body(browser)
        await browser.quit()
        return result
    } catch {
        await browser.quit()
        throw error
    }
}
