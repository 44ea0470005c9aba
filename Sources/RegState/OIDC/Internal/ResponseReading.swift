import Foundation

/// Maps non-success provider responses to ``OIDCError``, the same way for every endpoint.
package enum ResponseReading {
    /// The error a non-2xx response stands for (the rule at ``OIDCError/isRefusal``: 5xx, 429 and 408 and a web page
    /// transient, a 429 or 503 with `Retry-After` ``OIDCError/rateLimited(retryAfter:)``, a §5.2 body an OAuth error).
    static func failure(_ response: HTTPResponse) -> OIDCError {
        // RFC 6585 §6: 511 Network Authentication Required is a captive portal's status by definition.
        if response.status == 511 { return .notTheProvider(status: 511) }
        if let seconds = RetryAfter.seconds(in: response) { return .rateLimited(retryAfter: seconds) }
        if response.status >= 500 || response.status == 429 || response.status == 408 {
            return .server(status: response.status)
        }
        if isWebPage(response) { return .notTheProvider(status: response.status) }
        if let object = response.jsonBody?.objectValue, let error = object["error"]?.stringValue, !error.isEmpty {
            return .oauth(error: error, description: object["error_description"]?.stringValue, status: response.status)
        }
        return .unexpectedStatus(response.status)
    }

    /// Whether `response` is an HTML page: its content type says so, or its body starts like markup.
    static func isWebPage(_ response: HTTPResponse) -> Bool {
        if let type = response.header("Content-Type")?.lowercased(),
           type.hasPrefix("text/html") || type.hasPrefix("application/xhtml") { return true }
        let start = response.body.prefix(64).drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        return start.first == UInt8(ascii: "<")
    }

    /// Sends `request`, mapping transport failures.
    package static func send(_ request: HTTPRequest, over transport: any HTTPTransport) async throws(OIDCError) -> HTTPResponse {
        do {
            return try await transport.send(request)
        } catch {
            throw .transport(error)
        }
    }

    /// The body of a 2xx response that is not a web page (a captive portal's page in place of a discovery document
    /// or a key set is not the provider speaking: ``OIDCError/notTheProvider(status:)``, the same network condition
    /// as for every other answer).
    static func documentBody(_ response: HTTPResponse) throws(OIDCError) -> Data {
        guard response.isSuccess else { throw failure(response) }
        if isWebPage(response) { throw .notTheProvider(status: response.status) }
        return response.body
    }

    /// The body of a 2xx response as a JSON object; a web page in its place is not the provider speaking.
    package static func jsonObject(_ response: HTTPResponse, what: String) throws(OIDCError) -> [String: JSONValue] {
        guard response.isSuccess else { throw failure(response) }
        guard let object = response.jsonBody?.objectValue else {
            if isWebPage(response) { throw .notTheProvider(status: response.status) }
            throw .malformedResponse("the \(what) is not a JSON object")
        }
        return object
    }
}
