import Foundation
import RegState

/// Catches an authorization redirect on `http://127.0.0.1:PORT/path`, for command-line tools and desktop apps that
/// use a loopback redirect URI (RFC 8252 §7.3).
///
/// The socket is bound when the listener is created, so ``redirectURI`` (with the real port, also when an ephemeral
/// port was asked for) can go into the `OIDCConfiguration` before the authorization URL is built. From then until
/// ``close()`` a thread of its own (never the cooperative pool, never spinning: it sleeps in `poll()`) answers every
/// connection side by side, each within its own deadline (`connectionTimeout`): a browser's idle preconnect, a slow or
/// stalled local client, or a burst of forged redirects never delays the genuine one. A redirect caught while nobody
/// waits is kept for the next ``waitForRedirect(timeout:)``, so a forged redirect the app refuses costs the genuine
/// one nothing; a reload of the page is answered again (never left spinning) but not handed out twice. Close the
/// listener when the login ends: the port is released.
///
/// `@unchecked Sendable` is safe: the properties are immutable, and what the serving thread shares with waiting tasks
/// is behind `LockedValue` in the internal `LoopbackServer`.
public final class LoopbackRedirectListener: @unchecked Sendable {
    /// The port the listener is bound to.
    public let port: UInt16
    /// The path the redirect is expected on (requests for other paths, like `/favicon.ico`, get a 404).
    public let path: String
    /// The redirect URI to register and configure: `http://127.0.0.1:PORT` + ``path``.
    public let redirectURI: URL

    private let server: LoopbackServer
    /// Where the waits' deadlines are read (the wall clock unless a test passes its own).
    private let clock: any RegStateClock

    /// Binds 127.0.0.1:`port` (0: one the system picks) and starts answering requests for `path`.
    ///
    /// - Parameters:
    ///   - port: The port on 127.0.0.1 to bind; 0 lets the system pick a free one (read it back from ``port``).
    ///   - path: The path the redirect comes to; requests for other paths get a 404.
    ///   - clock: Where the deadlines are read.
    ///   - connectionTimeout: Seconds one connection has to send its request and take the answer (default 10); a
    ///     connection past it is closed, and no other connection waits for it meanwhile.
    ///   - maxConnections: Connections served at once (default 32); one more closes the oldest.
    /// - Throws: ``LoopbackListenerError/socketFailed(_:)`` when the port cannot be bound (for example it is in use).
    public init(port: UInt16 = 0, path: String = "/callback", clock: any RegStateClock = SystemClock(),
                connectionTimeout: TimeInterval = 10, maxConnections: Int = 32) throws(LoopbackListenerError)
    {
        let normalized = path.hasPrefix("/") ? path : "/" + path
        let (descriptor, boundPort) = try LoopbackSocket.openListener(port: port)
        let wake: (read: Int32, write: Int32)
        do {
            wake = try LoopbackSocket.makeWakePipe()
        } catch {
            LoopbackSocket.closeDescriptor(descriptor)
            throw error
        }
        guard let uri = URL(string: "http://127.0.0.1:\(boundPort)\(normalized)") else {
            LoopbackSocket.closeDescriptor(descriptor)
            LoopbackSocket.closeDescriptor(wake.read)
            LoopbackSocket.closeDescriptor(wake.write)
            throw .socketFailed("the path cannot form a URL")
        }
        self.port = boundPort
        self.path = normalized
        self.redirectURI = uri
        self.clock = clock
        server = LoopbackServer(socket: descriptor, wake: wake, port: boundPort, path: normalized, clock: clock,
                                connectionTimeout: connectionTimeout, maxConnections: maxConnections)
        server.start()
    }

    deinit {
        close()
    }

    /// Waits for the browser's redirect and returns it as `http://127.0.0.1:PORT` + the request target.
    ///
    /// Returns the next `GET` for ``path`` (with any query) not handed out before: one caught since the last wait, or
    /// the next to arrive. Every such request is answered with a page saying the window can be closed; the page
    /// claims no success (it is sent before the redirect is checked, so a forged redirect gets it too), and the app
    /// says whether sign-in worked. Other requests are answered with 404, 405 or 400 and never end the wait. A
    /// redirect the app refuses (a forged one) is followed by another wait: the genuine one still arrives.
    /// - Throws: ``LoopbackListenerError/timedOut`` after `timeout` seconds, ``LoopbackListenerError/cancelled`` when
    ///   the task is cancelled or ``close()`` is called, ``LoopbackListenerError/alreadyWaiting`` for a second
    ///   concurrent wait, ``LoopbackListenerError/closed`` after ``close()``.
    public func waitForRedirect(timeout: TimeInterval) async throws(LoopbackListenerError) -> URL {
        let deadline = clock.now().addingTimeInterval(max(0, timeout))
        let id = LockedValue<UInt64?>(nil)
        let result: Result<URL, LoopbackListenerError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now: Result<URL, LoopbackListenerError>? = server.queue.withLock { queue in
                    if queue.closed { return .failure(.closed) }
                    if queue.waiter != nil { return .failure(.alreadyWaiting) }
                    if Task.isCancelled { return .failure(.cancelled) }
                    if !queue.pending.isEmpty { return .success(queue.pending.removeFirst()) }
                    queue.nextWaiterID += 1
                    id.withLock { $0 = queue.nextWaiterID }
                    queue.waiter = .init(id: queue.nextWaiterID, continuation: continuation, deadline: deadline)
                    return nil
                }
                if let now {
                    continuation.resume(returning: now)
                } else {
                    server.wake()  // the serving loop now also watches this wait's deadline
                }
            }
        } onCancel: {
            let waiter = server.queue.withLock { queue -> LoopbackRedirectQueue.Waiter? in
                guard let waiter = queue.waiter, waiter.id == id.withLock({ $0 }) else { return nil }
                queue.waiter = nil
                return waiter
            }
            waiter?.continuation.resume(returning: .failure(.cancelled))
        }
        return try result.get()
    }

    /// Stops listening for good and releases the port: a running wait ends with ``LoopbackListenerError/cancelled``,
    /// later waits throw ``LoopbackListenerError/closed``, and a later connection to the port is refused. Call it when
    /// the login the listener serves has ended.
    public func close() {
        let waiter = server.queue.withLock { queue -> LoopbackRedirectQueue.Waiter? in
            queue.closed = true
            defer { queue.waiter = nil }
            return queue.waiter
        }
        waiter?.continuation.resume(returning: .failure(.cancelled))
        server.wake()
    }
}
