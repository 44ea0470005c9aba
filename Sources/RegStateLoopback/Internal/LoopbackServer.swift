import Foundation
import RegState
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The loopback listener's serving loop, on a thread of its own from the listener's creation until it is closed: one
/// `poll()` over the listening socket, the wake pipe and every open connection, so connections are answered side by
/// side, each within its own deadline. An idle preconnect, a slow drip or a forged redirect never delays another
/// connection; redirects caught while nobody waits are kept for the next wait (``LoopbackRedirectQueue``).
///
/// `@unchecked Sendable` is safe: the descriptors are immutable; the sockets are used by the serving thread only, the
/// wake pipe's write end with single `write` calls from anywhere (it is closed only in `deinit`), and the shared state
/// is behind `LockedValue`.
final class LoopbackServer: @unchecked Sendable {
    /// The listening socket (closed by the serving thread when it ends).
    private let socket: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let port: UInt16
    private let path: String
    private let clock: any RegStateClock
    /// How long one connection may take to send its request head and read the answer.
    private let connectionTimeout: TimeInterval
    /// The most connections served at once; a new one past it closes the oldest.
    private let maxConnections: Int
    /// The redirects caught, the wait in progress, and whether the listener is closed.
    let queue = LockedValue(LoopbackRedirectQueue())

    init(socket: Int32, wake: (read: Int32, write: Int32), port: UInt16, path: String, clock: any RegStateClock,
         connectionTimeout: TimeInterval, maxConnections: Int) {
        self.socket = socket
        self.wakeRead = wake.read
        self.wakeWrite = wake.write
        self.port = port
        self.path = path
        self.clock = clock
        self.connectionTimeout = max(0, connectionTimeout)
        self.maxConnections = max(1, maxConnections)
    }

    deinit {
        LoopbackSocket.closeDescriptor(wakeRead)
        LoopbackSocket.closeDescriptor(wakeWrite)
    }

    /// Starts the serving thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "RegState.LoopbackRedirectListener"
        thread.start()
    }

    /// Makes the serving loop look at the shared state again (a new wait, a cancellation, close).
    func wake() {
        LoopbackSocket.wake(wakeWrite)
    }

    private func run() {
        var connections: [LoopbackConnection] = []
        defer {
            for connection in connections { LoopbackSocket.closeDescriptor(connection.descriptor) }
            // The port is released now; the wake pipe lives as long as this object, so a late wake never writes
            // to a descriptor number the process has reused.
            LoopbackSocket.closeDescriptor(socket)
        }
        while true {
            let now = clock.now()
            if let expired = queue.withLock({ $0.expiredWaiter(at: now) }) {
                expired.continuation.resume(returning: .failure(.timedOut))
            }
            connections.removeAll { connection in
                guard connection.deadline <= now else { return false }
                LoopbackSocket.closeDescriptor(connection.descriptor)
                return true
            }
            let (closed, waitDeadline) = queue.withLock { ($0.closed, $0.waiter?.deadline) }
            if closed { return }
            let deadlines = connections.map(\.deadline) + (waitDeadline.map { [$0] } ?? [])
            var fds = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            fds += connections.map { pollfd(fd: $0.descriptor, events: Int16($0.response == nil ? POLLIN : POLLOUT),
                                            revents: 0) }
            let ready = LoopbackSocket.waitReady(&fds, until: deadlines.min(), clock: clock)
            guard ready else { continue }
            if fds[1].revents != 0 { LoopbackSocket.drain(wakeRead) }
            for index in connections.indices {
                let events = fds[index + 2].revents
                guard events != 0 else { continue }
                if connections[index].response == nil {
                    read(&connections[index])
                } else {
                    LoopbackSocket.writeSome(&connections[index])
                }
            }
            connections.removeAll { connection in
                guard connection.finished || connection.dropped else { return false }
                LoopbackSocket.closeDescriptor(connection.descriptor)
                return true
            }
            if fds[0].revents != 0 { accept(into: &connections) }
        }
    }

    /// Accepts every pending connection; past ``maxConnections`` the oldest open one is closed to make room.
    private func accept(into connections: inout [LoopbackConnection]) {
        while let client = LoopbackSocket.acceptConnection(socket) {
            if connections.count >= maxConnections {
                LoopbackSocket.closeDescriptor(connections.removeFirst().descriptor)
            }
            connections.append(LoopbackConnection(descriptor: client,
                                                  deadline: clock.now().addingTimeInterval(connectionTimeout)))
        }
    }

    /// Reads what `connection` sent; once its head is complete, answers it (and hands a redirect on).
    private func read(_ connection: inout LoopbackConnection) {
        var ended = false
        switch LoopbackSocket.receive(connection.descriptor, limit: LoopbackConnection.headLimit - connection.received.count) {
        case .data(let bytes): connection.received.append(bytes)
        case .wouldBlock: return
        case .ended:
            // Gone before a whole head: nothing to answer when it sent nothing, a 400 for half a head.
            guard !connection.received.isEmpty else {
                connection.dropped = true
                return
            }
            ended = true
        }
        guard connection.headComplete || ended else { return }
        let head = String(data: connection.received, encoding: .utf8) ?? ""
        let request = connection.headComplete ? LoopbackRequest(head: head, expectedPath: path) : .malformed
        var status = switch request {
        case .redirect: 200
        case .otherPath: 404
        case .notGet: 405
        case .malformed: 400
        }
        if case .redirect(let target) = request {
            if let url = URL(string: "http://127.0.0.1:\(port)\(target)") {
                if let (waiter, caught) = queue.withLock({ $0.catchRedirect(url, target: target) }) {
                    waiter.continuation.resume(returning: .success(caught))
                }
            } else {
                status = 400
            }
        }
        connection.response = LoopbackRequest.response(status: status)
        LoopbackSocket.writeSome(&connection)
    }
}
