import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RegState

/// A `URLProtocol` that makes every request of a `URLSession` follow a `TokenPolicy` (the request policy's
/// `FRURLProtocol`): put it in a session configuration with ``configure(_:service:policy:base:)`` and the app's own
/// networking carries the right token to the listed URLs only, renews once on a rejection and retries once, and fails
/// with `RegStateServiceError.rejectedAfterRenewal` when the retried request is rejected again.
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
/// `AuthorizedTransport`'s rules, redirects included.
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
    ///   - base: how requests go out (default: a `URLSessionTransport`).
    /// - Returns: a copy of `configuration` with the protocol first in `protocolClasses`.
    public static func configure(_ configuration: URLSessionConfiguration, service: RegStateService,
                                 policy: TokenPolicy, base: any HTTPTransport = URLSessionTransport())
        -> URLSessionConfiguration
    {
        let transport = AuthorizedTransport(base: base, service: service, policy: policy)
        let id = TransportRegistry.shared.register(transport, policy: policy)
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
        return TransportRegistry.shared.transport(for: url) != nil
    }

    /// The request as it is.
    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// Sends the request through the registered `AuthorizedTransport` and reports its answer to the client.
    override public func startLoading() {
        let loading = URLProtocolLoading(self)
        let task = Task.detached { await loading.load() }
        lock.withLock { running = task }
    }

    /// Cancels the request: a caller waiting for a renewal stops waiting at once.
    override public func stopLoading() {
        lock.withLock { running }?.cancel()
    }
}
