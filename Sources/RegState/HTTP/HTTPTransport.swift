import Foundation

/// Sends one HTTP request and returns its response: the seam between RegState's clients and the network (default
/// ``URLSessionTransport``). It never follows a redirect: requests carry tokens (<doc:RequestPolicy>).
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, whatever its status; a redirect is returned, not followed.
    ///
    /// - Throws: ``TransportError`` when no response arrived (offline, refused, timed out, cancelled).
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}

/// Why no HTTP response arrived. Every case but ``invalidRequest(_:)`` is transient: the same request may work later.
public enum TransportError: Error, Sendable, Equatable {
    /// The device has no network.
    case offline
    /// No response within the timeout.
    case timedOut
    /// The host could not be reached or the connection broke; the detail is the system's message.
    case connectionFailed(String)
    /// The task was cancelled.
    case cancelled
    /// The request could not be sent as built (for example a URL the transport cannot use).
    case invalidRequest(String)

    /// Whether trying again later may succeed.
    public var isTransient: Bool {
        if case .invalidRequest = self { return false }
        return true
    }
}

extension TransportError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .offline: "The device is offline."
        case .timedOut: "The server did not answer in time."
        case .connectionFailed(let detail): "The server could not be reached (\(detail))."
        case .cancelled: "The request was cancelled."
        case .invalidRequest(let detail): "The request could not be sent (\(detail))."
        }
    }
}
