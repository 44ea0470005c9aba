import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default ``HTTPTransport``: URLSession, on Apple platforms and on Linux (FoundationNetworking).
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let defaultTimeout: TimeInterval

    /// Creates a transport over `session` (an ephemeral session by default: RegState keeps no cookies or cache).
    public init(session: URLSession = URLSession(configuration: .ephemeral), defaultTimeout: TimeInterval = 30) {
        self.session = session
        self.defaultTimeout = defaultTimeout
    }

    /// Sends `request` through URLSession.
    ///
    /// - Throws: ``TransportError``, mapped from `URLError`.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.timeoutInterval = request.timeout ?? defaultTimeout
        urlRequest.httpBody = request.body
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch let error as URLError {
            throw Self.map(error)
        } catch is CancellationError {
            throw TransportError.cancelled
        } catch {
            throw TransportError.connectionFailed(String(describing: type(of: error)))
        }
        guard let http = response as? HTTPURLResponse else {
            throw TransportError.connectionFailed("not an HTTP response")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }

    static func map(_ error: URLError) -> TransportError {
        switch error.code {
        case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff: .offline
        case .timedOut: .timedOut
        case .cancelled: .cancelled
        case .badURL, .unsupportedURL: .invalidRequest(error.localizedDescription)
        default: .connectionFailed("URLError \(error.code.rawValue)")
        }
    }
}
