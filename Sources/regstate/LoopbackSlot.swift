import Foundation
import RegState
import RegStateLoopback

/// The loopback listener of `--loopback`, one per social login: bound when the run starts (so the redirect URI has its
/// port before the first authorization URL is made), closed when that login ends (the port is released, and nothing
/// listens while no login waits), and bound again on the same port and path for the next login.
///
/// `@unchecked Sendable` is safe: the one mutable field is behind `LockedValue`.
final class LoopbackSlot: @unchecked Sendable {
    /// The redirect URI every listener of this slot answers (the port the first one was given).
    let redirectURI: URL
    private let port: UInt16
    private let path: String
    private let connectionTimeout: TimeInterval
    private let current: LockedValue<LoopbackRedirectListener?>

    /// Binds the first listener on `port` (0: one the system picks) for `path`.
    /// - Throws: ``LoopbackListenerError/socketFailed(_:)`` when the port cannot be bound.
    init(port: UInt16, path: String, connectionTimeout: TimeInterval = 10) throws(LoopbackListenerError) {
        let first = try LoopbackRedirectListener(port: port, path: path, connectionTimeout: connectionTimeout)
        redirectURI = first.redirectURI
        self.port = first.port
        self.path = first.path
        self.connectionTimeout = connectionTimeout
        current = LockedValue(first)
    }

    /// The listener of the login in progress: the one bound now, or a new one on the same port after ``close()``.
    /// - Throws: ``LoopbackListenerError/socketFailed(_:)`` when the port cannot be bound again (another program took
    ///   it meanwhile).
    func listener() throws(LoopbackListenerError) -> LoopbackRedirectListener {
        if let listener = current.withLock({ $0 }) { return listener }
        let made = try LoopbackRedirectListener(port: port, path: path, connectionTimeout: connectionTimeout)
        current.withLock { $0 = made }
        return made
    }

    /// Stops listening: the login the listener served has ended.
    func close() {
        current.withLock { listener in
            listener?.close()
            listener = nil
        }
    }
}
