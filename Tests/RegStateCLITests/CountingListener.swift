import Foundation
@testable import RegState
@testable import RegStateLoopback

/// A server on 127.0.0.1 (an ephemeral port) that answers every request 404 and remembers its request line and
/// whether a body came with it: the "other provider" a CLI run must send nothing to.
final class CountingListener: Sendable {
    let port: UInt16
    /// "METHOD /path" of every request received.
    let received = LockedValue<[String]>([])
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)

    init() throws {
        (listener, port) = try LoopbackSocket.openListener(port: 0)
        wake = try LoopbackSocket.makeWakePipe()
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// The listener as an issuer URL.
    var issuer: String { "http://127.0.0.1:\(port)" }

    /// Stops serving and closes the socket.
    func close() { LoopbackSocket.wake(wake.write) }

    private func serve() {
        defer {
            LoopbackSocket.closeDescriptor(listener)
            LoopbackSocket.closeDescriptor(wake.read)
            LoopbackSocket.closeDescriptor(wake.write)
        }
        while true {
            let ready = LoopbackSocket.waitReadable([listener, wake.read], until: Date().addingTimeInterval(300))
            if ready.isEmpty || ready.contains(wake.read) { return }
            guard let client = LoopbackSocket.acceptConnection(listener) else { continue }
            defer { LoopbackSocket.closeDescriptor(client) }
            let deadline = Date().addingTimeInterval(10)
            let head = LoopbackSocket.readRequestHead(client, until: deadline) ?? "(unreadable)"
            received.withLock { $0.append(head.components(separatedBy: "\r\n").first ?? head) }
            let text = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            LoopbackSocket.writeAll(Data(text.utf8), to: client, until: deadline)
        }
    }
}
