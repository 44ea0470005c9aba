import Foundation
import RegState

/// What the loopback listener makes of one HTTP request head, and the responses it sends.
enum LoopbackRequest: Equatable {
    /// A `GET` for the redirect path; carries the origin-form request target (path and query).
    case redirect(target: String)
    /// A `GET` for another path.
    case otherPath
    /// Another method.
    case notGet
    /// Not an HTTP request line.
    case malformed

    /// Classifies the request line of `head`.
    init(head: String, expectedPath: String) {
        guard let line = head.split(separator: "\r\n", maxSplits: 1).first ?? head.split(separator: "\n").first else {
            self = .malformed
            return
        }
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[2].hasPrefix("HTTP/"), parts[1].hasPrefix("/") else {
            self = .malformed
            return
        }
        guard parts[0] == "GET" else {
            self = .notGet
            return
        }
        let target = String(parts[1])
        let requestPath = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        self = requestPath == expectedPath ? .redirect(target: target) : .otherPath
    }

    /// A complete `Connection: close` response with a small HTML page.
    static func response(status: Int) -> Data {
        let (reason, message) = switch status {
        // Sent before the engine has judged the redirect (a forged one gets this page too), so it claims nothing.
        case 200: ("OK", "The sign-in response reached the app. You can close this window and return to the app, which shows whether you are signed in.")
        case 404: ("Not Found", "Nothing here.")
        case 405: ("Method Not Allowed", "Only GET is served here.")
        default: ("Bad Request", "The request could not be read.")
        }
        let html = """
            <!doctype html><html><head><meta charset="utf-8"><title>RegState</title></head>\
            <body><p>\(message)</p></body></html>
            """
        let body = Data(html.utf8)
        let head = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: text/html; charset=utf-8\r\n"
            + "Content-Length: \(body.count)\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
        return Data(head.utf8) + body
    }
}
