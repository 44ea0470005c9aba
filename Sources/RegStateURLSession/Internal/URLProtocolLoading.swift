import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RegState

/// One loading, handed to the task that performs it.
///
/// `@unchecked Sendable` is safe: the task is the only code that uses the protocol instance and its client after
/// `startLoading` returns, and URLProtocol clients accept calls from any thread.
final class URLProtocolLoading: @unchecked Sendable {
    let loader: RegStateURLProtocol
    let client: (any URLProtocolClient)?
    let request: URLRequest

    init(_ loader: RegStateURLProtocol) {
        self.loader = loader
        client = loader.client
        request = loader.request
    }

    /// Sends the request through its registered transport and reports the answer, or the failure, to the client.
    func load() async {
        do {
            let named = request.value(forHTTPHeaderField: RegStateURLProtocol.registrationHeader)
                .flatMap(TransportRegistry.shared.transport)
            guard let transport = named ?? request.url.flatMap(TransportRegistry.shared.transport(for:)) else {
                throw RegStateServiceError.transport(.invalidRequest("the session's authorization policy is gone"))
            }
            let response = try await transport.send(try HTTPRequest(request))
            guard let url = request.url,
                  let http = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1",
                                             headerFields: response.headers)
            else { throw RegStateServiceError.transport(.connectionFailed("no HTTP response")) }
            client?.urlProtocol(loader, didReceive: http, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(loader, didLoad: response.body)
            client?.urlProtocolDidFinishLoading(loader)
        } catch {
            client?.urlProtocol(loader, didFailWithError: error)
        }
    }
}
