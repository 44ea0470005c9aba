import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `URLProtocol` that makes every request of a `URLSession` follow a ``TokenPolicy`` (the request policy's
/// `FRURLProtocol`): put it in a session configuration with ``configure(_:service:policy:base:)`` and the app's own
/// networking carries the right token to the listed URLs only, renews once on a rejection and retries once, and fails
/// with ``RegStateServiceError/rejectedAfterRenewal`` when the retried request is rejected again.
///
/// ```swift
/// let configuration = RegStateURLProtocol.configure(.default, service: service, policy: .backend(backendURL))
/// let session = URLSession(configuration: configuration)
/// let (data, response) = try await session.data(from: backendURL.appendingPathComponent("v1/tickets"))
/// ```
///
/// On Apple platforms a session finds its own policy through a header of its configuration; FoundationNetworking
/// does not show that header to the protocol, so on Linux a request goes to the policy most recently configured
/// that lists its URL: configure one policy per API there. Requests go out through `base` with
/// ``AuthorizedTransport``'s rules, redirects included.
public final class RegStateURLProtocol: URLProtocol {
    /// The header that names a configuration's registered transport; it never leaves the device.
    static let registrationHeader = "X-RegState-Authorization-Policy"

    /// Guards `running`, the only state written after `init`.
    private let lock = NSLock()
    private var running: Task<Void, Never>?

    /// Puts the protocol in `configuration` for `service` and `policy`: every session made from the returned
    /// configuration authorizes its requests.
    ///
    /// - Parameters:
    ///   - configuration: the app's session configuration.
    ///   - service: where the tokens come from.
    ///   - policy: which URL gets which token.
    ///   - base: how requests go out (default: a ``URLSessionTransport``).
    /// - Returns: a copy of `configuration` with the protocol first in `protocolClasses`.
    public static func configure(_ configuration: URLSessionConfiguration, service: RegStateService,
                                 policy: TokenPolicy, base: any HTTPTransport = URLSessionTransport())
        -> URLSessionConfiguration
    {
        let id = Registry.shared.register(AuthorizedTransport(base: base, service: service, policy: policy))
        guard let copy = configuration.copy() as? URLSessionConfiguration else { return configuration }
        var headers = copy.httpAdditionalHeaders ?? [:]
        headers[registrationHeader] = id
        copy.httpAdditionalHeaders = headers
        copy.protocolClasses = [RegStateURLProtocol.self] + (copy.protocolClasses ?? [])
        return copy
    }

    /// Whether the request is one to authorize: it names a registered transport (the configuration's header), or,
    /// where the loading system asks before it adds the configuration's headers (FoundationNetworking), a
    /// registered policy lists its URL. Every other request is left to the other protocols, untouched.
    override public class func canInit(with request: URLRequest) -> Bool {
        if request.value(forHTTPHeaderField: registrationHeader) != nil { return true }
        guard let url = request.url else { return false }
        return Registry.shared.transport(for: url) != nil
    }

    /// The request as it is.
    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// Sends the request through the registered ``AuthorizedTransport`` and reports its answer to the client.
    override public func startLoading() {
        let loading = Loading(self)
        let task = Task.detached { await loadThroughPolicy(loading) }
        lock.withLock { running = task }
    }

    /// Cancels the request: a caller waiting for a renewal stops waiting at once.
    override public func stopLoading() {
        lock.withLock { running }?.cancel()
    }
}

private func loadThroughPolicy(_ loading: Loading) async {
    let client = loading.client
    let this = loading.loader
    let request = loading.request
    do {
        let named = request.value(forHTTPHeaderField: RegStateURLProtocol.registrationHeader).flatMap(Registry.shared.transport)
        guard let transport = named ?? request.url.flatMap(Registry.shared.transport(for:)) else {
            throw RegStateServiceError.transport(.invalidRequest("the session's authorization policy is gone"))
        }
        let response = try await transport.send(try HTTPRequest(request))
        guard let url = request.url,
              let http = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1",
                                         headerFields: response.headers)
        else { throw RegStateServiceError.transport(.connectionFailed("no HTTP response")) }
        client?.urlProtocol(this, didReceive: http, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(this, didLoad: response.body)
        client?.urlProtocolDidFinishLoading(this)
    } catch {
        client?.urlProtocol(this, didFailWithError: error)
    }
}

/// One loading, handed to the task that performs it.
///
/// `@unchecked Sendable` is safe: the task is the only code that uses the protocol instance and its client after
/// `startLoading` returns, and URLProtocol clients accept calls from any thread.
private final class Loading: @unchecked Sendable {
    let loader: RegStateURLProtocol
    let client: (any URLProtocolClient)?
    let request: URLRequest

    init(_ loader: RegStateURLProtocol) {
        self.loader = loader
        client = loader.client
        request = loader.request
    }
}

/// The transports of configured sessions, by the id their configuration's header names. A registration lives as
/// long as the process: a configuration can be copied into any number of sessions.
///
/// `@unchecked Sendable` is safe: `transports` is read and written only while `lock` is held.
private final class Registry: @unchecked Sendable {
    static let shared = Registry()
    private let lock = NSLock()
    /// A transport's id is its position, counted from 1.
    private var transports: [AuthorizedTransport] = []

    func register(_ transport: AuthorizedTransport) -> String {
        lock.withLock {
            transports.append(transport)
            return String(transports.count)
        }
    }

    func transport(_ id: String) -> AuthorizedTransport? {
        guard let position = Int(id) else { return nil }
        return lock.withLock { transports.indices.contains(position - 1) ? transports[position - 1] : nil }
    }

    func transport(for url: URL) -> AuthorizedTransport? {
        lock.withLock { transports.last { $0.lists(url) } }
    }
}

extension HTTPRequest {
    /// The request an app built, without the registration header.
    ///
    /// - Throws: ``RegStateServiceError/transport(_:)`` for a method or URL an ``HTTPRequest`` cannot carry.
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

extension Data {
    init(reading stream: InputStream) {
        self.init()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            append(buffer, count: count)
        }
    }
}
