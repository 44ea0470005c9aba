import Foundation
import RegState

/// A redirect the simulator answers instead of serving a request: the knob behind "the API moved", "a proxy bounces
/// you to another host" and "an open redirect on the API".
///
/// A request whose scheme, host, port and path equal ``from`` (query ignored) is answered with ``status`` and
/// `Location: to`. The simulator also plays the server at ``to`` (another origin, or another path of the provider or
/// the backend, which it then no longer serves): it answers `200 {"received_authorization": true|false}` and logs the request as
/// `"<METHOD> <url> authorization=<true|false>"` in ``Simulator/requestLog``, so a test sees whether a token arrived
/// without the token itself ever being recorded.
public struct SimulatorRedirect: Sendable, Equatable {
    /// The URL that is redirected.
    public var from: URL
    /// Where it is redirected to (the `Location`).
    public var to: URL
    /// The status: 301, 302, 303, 307 or 308. Default 307 (method and body kept).
    public var status: Int

    /// Creates a redirect from `from` to `to`.
    public init(from: URL, to: URL, status: Int = 307) {
        self.from = from
        self.to = to
        self.status = status
    }

    /// Whether `url` is the redirected URL.
    func matches(_ url: URL) -> Bool {
        Self.key(url) == Self.key(from)
    }

    /// Whether `url` is the redirect's target.
    func targets(_ url: URL) -> Bool {
        Self.key(url) == Self.key(to)
    }

    private static func key(_ url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? ""):\(url.port ?? -1)\(url.path)"
    }
}
