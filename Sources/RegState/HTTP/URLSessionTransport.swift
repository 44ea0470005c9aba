import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default ``HTTPTransport``: URLSession (FoundationNetworking on Linux), in a session of its own whose delegate
/// refuses every redirect (one an app configured could follow them behind its back).
public struct URLSessionTransport: HTTPTransport {
    private let owner: SessionOwner
    private let defaultTimeout: TimeInterval

    /// Creates a transport with its own session built from `configuration` (ephemeral by default: RegState keeps no
    /// cookies or cache), which never follows redirects.
    public init(configuration: URLSessionConfiguration = .ephemeral, defaultTimeout: TimeInterval = 30) {
        self.owner = SessionOwner(configuration: configuration)
        self.defaultTimeout = defaultTimeout
    }

    /// Sends `request` through URLSession; a redirect is returned as it came, a `URLError` as its ``TransportError``.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
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
            (data, response) = try await owner.session.data(for: urlRequest)
        } catch {
            throw Self.map(error)
        }
        guard let http = response as? HTTPURLResponse else { throw .connectionFailed("not an HTTP response") }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }

    /// URLSession's untyped failure read through the `NSError` it bridges to (no cast): a `URLError` by its code, a
    /// cancelled task's as ``TransportError/cancelled``, any other as a connection failure named by its type.
    static func map(_ error: any Error) -> TransportError {
        let bridged = error as NSError
        guard bridged.domain == NSURLErrorDomain else {
            return Task.isCancelled ? .cancelled : .connectionFailed(String(describing: type(of: error)))
        }
        return switch URLError.Code(rawValue: bridged.code) {
        case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff: .offline
        case .timedOut: .timedOut
        case .cancelled: .cancelled
        case .badURL, .unsupportedURL: .invalidRequest(bridged.localizedDescription)
        default: .connectionFailed("URLError \(bridged.code)")
        }
    }
}

/// Owns the session, made at the first request and invalidated with the last copy of the transport (a session keeps
/// its delegate alive until then). `@unchecked Sendable`: `made` is guarded by `lock`; `configuration` is only read.
private final class SessionOwner: @unchecked Sendable {
    private let configuration: URLSessionConfiguration
    private let lock = NSLock()
    private var made: URLSession?

    init(configuration: URLSessionConfiguration) {
        self.configuration = configuration
    }

    var session: URLSession {
        lock.withLock {
            if let made { return made }
            let session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
            made = session
            return session
        }
    }

    deinit { made?.finishTasksAndInvalidate() }
}

/// Completes every redirect with `nil`: URLSession then finishes the task with the 3xx response itself.
/// `@unchecked Sendable`: it has no state at all.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
