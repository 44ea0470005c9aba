import Foundation
import RegState
import RegStateSimulator

/// Wraps a real transport (the simulator's, or URLSession against a real provider): records every request that goes
/// on the wire, and lets a test answer, delay or lose chosen requests itself.
///
/// The one hand-written transport of the test suites: a test that needs the provider to answer something the
/// simulator cannot play (a captive portal's page, a lost answer) says so in its `answer` closure, and every other
/// request reaches the real thing.
public final class RecordingTransport: HTTPTransport {
    /// Answers one request: `base` is the wrapped transport, for the requests the closure lets through;
    /// `earlier` is how many earlier requests matched the same ``Kind``.
    public typealias Answer = @Sendable (_ request: HTTPRequest, _ earlier: Int, _ base: any HTTPTransport)
        async throws(TransportError) -> HTTPResponse

    /// What a request is, as the tests count them.
    public enum Kind: Hashable, Sendable {
        /// A token-endpoint grant of this `grant_type` (`authorization_code`, `refresh_token`, ...).
        case grant(String)
        /// An RFC 7009 revocation (a form with a `token` and no `grant_type`).
        case revocation
        /// Anything else, by its path without a trailing slash.
        case path(String)

        /// The kind of `request`.
        public init(_ request: HTTPRequest) {
            let form = request.method == .post ? request.formParameters : [:]
            if let grant = form["grant_type"] {
                self = .grant(grant)
            } else if form["token"] != nil {
                self = .revocation
            } else {
                // URL.path drops a trailing slash on Linux and keeps it on Apple platforms: compare without it.
                var path = request.url.path
                while path.hasSuffix("/") { path.removeLast() }
                self = .path(path)
            }
        }
    }

    private let base: any HTTPTransport
    private let answer: Answer
    private let log = LockedValue<[HTTPRequest]>([])

    /// Wraps `base`; `answer` decides each request (by default, `base` answers everything).
    public init(base: any HTTPTransport, answer: @escaping Answer = { request, _, base throws(TransportError) in try await base.send(request) }) {
        self.base = base
        self.answer = answer
    }

    /// Records `request`, then lets ``Answer`` answer it.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let kind = Kind(request)
        let earlier = log.withLock { log in
            defer { log.append(request) }
            return log.filter { Kind($0) == kind }.count
        }
        return try await answer(request, earlier, base)
    }

    /// Every request sent, in order.
    public var requests: [HTTPRequest] { log.withLock { $0 } }

    /// The requests of one kind, in order.
    public func requests(_ kind: Kind) -> [HTTPRequest] { requests.filter { Kind($0) == kind } }

    /// The refresh tokens presented in refresh-token grants, in order (one entry per grant sent).
    public var refreshTokensSent: [String] { requests(.grant("refresh_token")).compactMap { $0.formParameters["refresh_token"] } }

    /// The tokens sent for revocation, in order.
    public var revokedTokensSent: [String] { requests(.revocation).compactMap { $0.formParameters["token"] } }
}
