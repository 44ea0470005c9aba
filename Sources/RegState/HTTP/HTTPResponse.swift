import Foundation

/// An HTTP response as a value: status, headers and body.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Header fields; look them up with ``header(_:)``, which ignores case.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of header `name`, compared without regard to case.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The body parsed as JSON, or `nil` when it is not JSON.
    public var jsonBody: JSONValue? { try? JSONValue.parse(body) }
}

extension HTTPResponse: RedactedDescription {
    /// The status and body length only: a response body can carry tokens.
    public var description: String { "HTTP \(status) (\(body.count) bytes)" }
}
