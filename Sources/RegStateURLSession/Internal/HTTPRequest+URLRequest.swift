import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RegState

extension HTTPRequest {
    /// The request an app built, without the registration header.
    ///
    /// - Throws: `RegStateServiceError.transport(_:)` for a method or URL an `HTTPRequest` cannot carry.
    init(_ request: URLRequest) throws(RegStateServiceError) {
        guard let url = request.url, let method = Method(rawValue: (request.httpMethod ?? "GET").uppercased()) else {
            throw .transport(.invalidRequest("unsupported request"))
        }
        var headers = request.allHTTPHeaderFields ?? [:]
        headers = headers.filter { $0.key.caseInsensitiveCompare(RegStateURLProtocol.registrationHeader) != .orderedSame }
        var body = request.httpBody
        if body == nil, let stream = request.httpBodyStream { body = Data(reading: stream) }
        self.init(method: method, url: url, headers: headers, body: body,
                  timeout: request.timeoutInterval > 0 ? request.timeoutInterval : nil)
    }
}
