import Foundation
import RegState

/// Why the loopback listener could not deliver a redirect.
public enum LoopbackListenerError: Error, Sendable, Equatable {
    /// A socket call failed; the detail is the call and the system's message.
    case socketFailed(String)
    /// No redirect arrived in time.
    case timedOut
    /// The wait was cancelled (task cancellation or ``LoopbackRedirectListener/close()``).
    case cancelled
    /// The listener was closed before the wait began.
    case closed
    /// Another wait is already running on this listener.
    case alreadyWaiting
    /// The redirect's request target could not form a URL. No longer thrown: such a request is answered 400 and the
    /// wait goes on (a forged request must not end it); kept for source compatibility.
    case malformedRequest
}

extension LoopbackListenerError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .socketFailed(let detail): "The local sign-in listener could not start (\(detail))."
        case .timedOut: "No sign-in response arrived in time."
        case .cancelled: "Waiting for the sign-in response was cancelled."
        case .closed: "The local sign-in listener is closed."
        case .alreadyWaiting: "The local sign-in listener is already waiting."
        case .malformedRequest: "The browser sent a sign-in response that could not be read."
        }
    }
}
