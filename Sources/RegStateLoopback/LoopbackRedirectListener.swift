import Foundation
import RegState

/// Catches an authorization redirect on `http://127.0.0.1:PORT/path`, for command-line tools and desktop apps that
/// use a loopback redirect URI (RFC 8252 §7.3).
///
/// The socket is bound when the listener is created, so ``redirectURI`` (with the real port, also when an ephemeral
/// port was asked for) can go into the `OIDCConfiguration` before the authorization URL is built.
/// ``waitForRedirect(timeout:)`` serves on a dedicated thread that sleeps in `poll()` — never on the cooperative
/// pool, never spinning — answers the browser with a small page and returns the redirect URL.
///
/// `@unchecked Sendable` is safe: the descriptors are immutable after `init`, and the mutable flags are behind
/// `LockedValue`; descriptors are closed only in `deinit`, when no wait (which holds a strong reference) is running.
public final class LoopbackRedirectListener: @unchecked Sendable {
    /// The port the listener is bound to.
    public let port: UInt16
    /// The path the redirect is expected on (requests for other paths, like `/favicon.ico`, get a 404).
    public let path: String
    /// The redirect URI to register and configure: `http://127.0.0.1:PORT` + ``path``.
    public let redirectURI: URL

    private let socket: Int32
    /// Where the wait's deadlines are read (the wall clock unless a test passes its own).
    private let clock: any RegStateClock
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let state = LockedValue(State())

    private struct State {
        var waiting = false
        var closed = false
    }

    /// Binds 127.0.0.1:`port` (0: one the system picks) and starts listening for `path`; the wait's deadlines are
    /// read on `clock`.
    /// - Throws: ``LoopbackListenerError/socketFailed(_:)`` when the port cannot be bound (for example it is in use).
    public init(port: UInt16 = 0, path: String = "/callback", clock: any RegStateClock = SystemClock())
        throws(LoopbackListenerError)
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
        self.socket = descriptor
        self.clock = clock
        self.wakeRead = wake.read
        self.wakeWrite = wake.write
    }

    deinit {
        LoopbackSocket.closeDescriptor(socket)
        LoopbackSocket.closeDescriptor(wakeRead)
        LoopbackSocket.closeDescriptor(wakeWrite)
    }

    /// Waits for the browser's redirect and returns it as `http://127.0.0.1:PORT` + the request target.
    ///
    /// Accepts connections until one sends a `GET` for ``path`` (with any query), answers it with a page saying the
    /// window can be closed, and returns. The page claims no success: it is sent before the redirect is checked, so a
    /// forged redirect gets the same page, and the app says whether sign-in worked. Other requests are answered with
    /// 404 or 405 and waiting goes on, `timeout` seconds in total.
    /// - Throws: ``LoopbackListenerError/timedOut`` after `timeout`, ``LoopbackListenerError/cancelled`` when the
    ///   task is cancelled or ``close()`` is called, ``LoopbackListenerError/alreadyWaiting`` for a second
    ///   concurrent wait, ``LoopbackListenerError/closed`` after ``close()``.
    public func waitForRedirect(timeout: TimeInterval) async throws(LoopbackListenerError) -> URL {
        let allowed: LoopbackListenerError? = state.withLock { state in
            if state.closed { return .closed }
            if state.waiting { return .alreadyWaiting }
            state.waiting = true
            // A byte left by an earlier, cancelled wait must not cancel this one.
            LoopbackSocket.drain(wakeRead)
            return nil
        }
        if let allowed { throw allowed }
        defer { state.withLock { $0.waiting = false } }
        let deadline = clock.now().addingTimeInterval(max(0, timeout))
        let result: Result<URL, LoopbackListenerError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread { [self] in
                    continuation.resume(returning: serve(until: deadline))
                }
                thread.name = "RegState.LoopbackRedirectListener"
                thread.start()
            }
        } onCancel: {
            LoopbackSocket.wake(wakeWrite)
        }
        return try result.get()
    }

    /// Stops listening for good: a running wait ends with ``LoopbackListenerError/cancelled``, later waits throw
    /// ``LoopbackListenerError/closed``. The port is released when the listener is deallocated.
    public func close() {
        state.withLock { $0.closed = true }
        LoopbackSocket.wake(wakeWrite)
    }

    /// The serving loop, on the dedicated thread.
    private func serve(until deadline: Date) -> Result<URL, LoopbackListenerError> {
        while true {
            let ready = LoopbackSocket.waitReadable([socket, wakeRead], until: deadline, clock: clock)
            if ready.contains(wakeRead) { return .failure(.cancelled) }
            if ready.isEmpty { return .failure(.timedOut) }
            guard let client = LoopbackSocket.acceptConnection(socket) else { continue }
            defer { LoopbackSocket.closeDescriptor(client) }
            let answerBy = min(deadline, clock.now().addingTimeInterval(10))
            guard let head = LoopbackSocket.readRequestHead(client, until: answerBy, clock: clock) else { continue }
            let request = LoopbackRequest(head: head, expectedPath: path)
            let status = switch request {
            case .redirect: 200
            case .otherPath: 404
            case .notGet: 405
            case .malformed: 400
            }
            LoopbackSocket.writeAll(LoopbackRequest.response(status: status), to: client, until: answerBy, clock: clock)
            guard case .redirect(let target) = request else { continue }
            guard let url = URL(string: "http://127.0.0.1:\(port)\(target)") else { return .failure(.malformedRequest) }
            return .success(url)
        }
    }
}
