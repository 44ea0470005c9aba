import Foundation

/// Maps non-success provider responses to ``OIDCError``, the same way for every endpoint.
enum ResponseReading {
    /// The error a non-2xx response stands for.
    ///
    /// 5xx and 429 are the server's trouble (transient); a 4xx with an RFC 6749 §5.2 body is an OAuth error; any
    /// other status is unexpected (a configuration problem, not transient).
    static func failure(_ response: HTTPResponse) -> OIDCError {
        if response.status >= 500 || response.status == 429 {
            return .server(status: response.status)
        }
        if let object = response.jsonBody?.objectValue, let error = object["error"]?.stringValue, !error.isEmpty {
            return .oauth(error: error, description: object["error_description"]?.stringValue, status: response.status)
        }
        return .unexpectedStatus(response.status)
    }

    /// Sends `request`, mapping transport failures.
    static func send(_ request: HTTPRequest, over transport: any HTTPTransport) async throws(OIDCError) -> HTTPResponse {
        do {
            return try await transport.sendReportingTransportErrors(request)
        } catch {
            throw .transport(error)
        }
    }

    /// The body of a 2xx response as a JSON object.
    static func jsonObject(_ response: HTTPResponse, what: String) throws(OIDCError) -> [String: JSONValue] {
        guard response.isSuccess else { throw failure(response) }
        guard let object = response.jsonBody?.objectValue else {
            throw .malformedResponse("the \(what) is not a JSON object")
        }
        return object
    }
}
