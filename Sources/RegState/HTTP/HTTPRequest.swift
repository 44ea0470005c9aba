import Foundation

/// An HTTP request as a plain value (rather than `URLRequest`), so the same request travels over URLSession, the
/// in-process simulator and tests, and can be compared.
public struct HTTPRequest: Sendable, Equatable {
    /// The request method.
    public enum Method: String, Sendable, Equatable {
        /// `GET`.
        case get = "GET"
        /// `POST`.
        case post = "POST"
        /// `PUT`.
        case put = "PUT"
        /// `DELETE`.
        case delete = "DELETE"
    }

    /// The method.
    public var method: Method
    /// The absolute URL.
    public var url: URL
    /// Header fields; look them up with ``header(_:)``, which ignores case.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?
    /// How long the transport may wait for the whole response; `nil` uses the transport's default.
    public var timeout: TimeInterval?

    /// Creates a request.
    public init(method: Method, url: URL, headers: [String: String] = [:], body: Data? = nil, timeout: TimeInterval? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// A `POST` with an `application/x-www-form-urlencoded` body, the encoding of OAuth token and revocation requests.
    public static func form(url: URL, parameters: [(String, String)], headers: [String: String] = [:]) -> HTTPRequest {
        let all = headers.merging(["Content-Type": "application/x-www-form-urlencoded",
                                   "Accept": "application/json"]) { $1 }
        return HTTPRequest(method: .post, url: url, headers: all, body: Data(FormEncoding.encode(parameters).utf8))
    }

    /// A request with a JSON body.
    public static func json(_ method: Method, url: URL, body: JSONValue, headers: [String: String] = [:]) -> HTTPRequest {
        let all = headers.merging(["Content-Type": "application/json", "Accept": "application/json"]) { $1 }
        return HTTPRequest(method: method, url: url, headers: all, body: body.serialized())
    }

    /// The value of header `name`, compared without regard to case.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

extension HTTPRequest: RedactedDescription {
    /// Method and URL without its query, so that codes and tokens in a query never reach a log.
    public var description: String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        return "\(method.rawValue) \(components?.string ?? "<url>")"
    }
}
