import Foundation

/// A browser-like HTTP client at one provider: a cookie jar that lives as long as the browser (so the provider's
/// session survives between visits, as in a real browser), redirects followed inside the provider's origin, and
/// forms filled and submitted the way a user would (hidden fields and the CSRF token kept, the chosen button sent).
///
/// It is curl with a jar file (start.sh and login.sh need curl anyway), one process per request. A redirect that
/// leaves the provider (the app's callback or post-logout URI, which nobody serves) ends the visit, and the exact
/// `Location` header is handed back unresolved, as the operating system would hand it to the app.
final class Browser {
    /// Where one visit ended.
    enum Visit: CustomStringConvertible {
        /// The provider sent the browser out of its origin: the exact `Location` (callback, post-logout URI).
        case left(URL)
        /// The provider showed a page: where, and its HTML.
        case page(URL, String)

        var description: String {
            switch self {
            case .left(let url): "left the provider for \(url.scheme ?? "?"):\(url.path)"
            case .page(let url, let html): "page \(url.path) (\(html.count) bytes: \(html.prefix(300)))"
            }
        }

        /// Whether this is the provider's login form (a page with a password field).
        var isLoginForm: Bool {
            if case .page(_, let html) = self { html.contains("type=\"password\"") } else { false }
        }
    }

    /// The provider's origin (`http://127.0.0.1:PORT`): redirects there are followed.
    let origin: URL
    private let directory: URL
    private var jar: URL { directory.appendingPathComponent("cookies") }

    /// A browser with an empty cookie jar for the provider at `origin`.
    init(origin: URL) throws {
        var components = URLComponents(url: origin, resolvingAgainstBaseURL: false)
        components?.path = ""
        components?.query = nil
        guard let root = components?.url else { throw InteropError.scriptFailed("no origin in \(origin)") }
        self.origin = root
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("interop-browser-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Whether the jar holds a cookie named `name` (Django's `sessionid` is the provider's login session).
    func hasCookie(_ name: String) -> Bool {
        let text = (try? String(contentsOf: jar, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").contains { line in
            let fields = line.split(separator: "\t")
            return fields.count >= 7 && fields[5] == name
        }
    }

    /// Opens `url` (GET) and follows the provider's redirects until it shows a page or sends the browser away.
    func open(_ url: URL) async throws -> Visit {
        try await follow(try await request(url, form: nil))
    }

    /// Submits the page's (single) `<form method="post">` as a user would: its hidden fields as they are, `fields`
    /// filled in (text inputs, or the name and value of the button pressed), to the form's action (the page itself
    /// when it names none); then follows redirects.
    func submit(_ page: Visit, _ fields: [String: String]) async throws -> Visit {
        guard case .page(let url, let html) = page else { throw InteropError.scriptFailed("no page to submit: \(page)") }
        guard html.range(of: "<form", options: .caseInsensitive) != nil else {
            throw InteropError.scriptFailed("no form on \(page)")
        }
        var form: [(String, String)] = Self.hiddenFields(html).filter { fields[$0.0] == nil }
        form += fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let action = Self.attribute("action", inFirst: "<form", of: html).flatMap { URL(string: $0, relativeTo: url) }
        return try await follow(try await request(action?.absoluteURL ?? url, form: form))
    }

    /// Signs in on a login page (username and password, then the form's `next`), and follows the redirects.
    func signIn(_ page: Visit, username: String, password: String) async throws -> Visit {
        try await submit(page, ["username": username, "password": password])
    }

    // MARK: HTTP

    private struct Answer {
        var url: URL
        var status: Int
        var location: String?
        var body: String
    }

    private func follow(_ first: Answer) async throws -> Visit {
        var answer = first
        for _ in 0..<10 {
            guard (300..<400).contains(answer.status), let location = answer.location else {
                return .page(answer.url, answer.body)
            }
            guard let next = URL(string: location, relativeTo: answer.url)?.absoluteURL else {
                throw InteropError.scriptFailed("unreadable Location \(location.prefix(80))")
            }
            guard next.scheme == origin.scheme, next.host == origin.host, next.port == origin.port else {
                // Leaving the provider: hand back the header as the provider wrote it.
                return .left(URL(string: location) ?? next)
            }
            answer = try await request(next, form: nil)
        }
        throw InteropError.scriptFailed("more than 10 redirects at the provider")
    }

    private func request(_ url: URL, form: [(String, String)]?) async throws -> Answer {
        let body = directory.appendingPathComponent("body")
        let headers = directory.appendingPathComponent("headers")
        var arguments = ["-s", "-b", jar.path, "-c", jar.path, "-o", body.path, "-D", headers.path,
                         "-w", "%{http_code}", "--max-time", "20"]
        if let form {
            arguments += ["-X", "POST"]
            for (name, value) in form { arguments += ["--data-urlencode", "\(name)=\(value)"] }
        }
        arguments.append(url.absoluteString)
        let output = try await ChildProcess.run("/usr/bin/env", ["curl"] + arguments, timeout: .seconds(30))
        guard output.status == 0, let status = Int(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw InteropError.scriptFailed("curl exited \(output.status) for \(url.path): \(output.stderr.suffix(300))")
        }
        let headerText = (try? String(contentsOf: headers, encoding: .utf8)) ?? ""
        let location = headerText.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "location" else { return nil }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }.last
        let text = (try? String(contentsOf: body, encoding: .utf8)) ?? ""
        return Answer(url: url, status: status, location: location, body: text)
    }

    // MARK: HTML (just enough for the provider's own forms)

    /// `name`/`value` of every `<input type="hidden">`, in order, HTML entities decoded.
    static func hiddenFields(_ html: String) -> [(String, String)] {
        html.components(separatedBy: "<input").dropFirst().compactMap { tail in
            let tag = String(tail.prefix { $0 != ">" })
            guard attribute("type", in: tag)?.lowercased() == "hidden", let name = attribute("name", in: tag) else {
                return nil
            }
            return (name, attribute("value", in: tag) ?? "")
        }
    }

    private static func attribute(_ name: String, inFirst tagStart: String, of html: String) -> String? {
        guard let start = html.range(of: tagStart, options: .caseInsensitive) else { return nil }
        return attribute(name, in: String(html[start.upperBound...].prefix { $0 != ">" }))
    }

    /// The value of `name="…"` in one tag's text.
    static func attribute(_ name: String, in tag: String) -> String? {
        guard let start = tag.range(of: " \(name)=\"", options: .caseInsensitive) else { return nil }
        let value = tag[start.upperBound...].prefix { $0 != "\"" }
        return String(value)
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#x27;", with: "'")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
