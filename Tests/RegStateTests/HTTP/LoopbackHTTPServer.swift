import Foundation
@testable import RegState
@testable import RegStateLoopback
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real HTTP/1.1 server on 127.0.0.1 (an ephemeral port), for testing what URLSession really sends: it answers
/// each request from `route` and records the request line and whether an `Authorization` header arrived.
final class LoopbackHTTPServer: Sendable {
    /// One request as the server saw it.
    struct Received: Equatable, Sendable {
        var method: String
        var path: String
        var hasAuthorization: Bool
    }

    let port: UInt16
    let received = LockedValue<[Received]>([])
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let route: @Sendable (_ path: String, _ port: UInt16) -> (status: Int, headers: [String: String])

    init(route: @escaping @Sendable (_ path: String, _ port: UInt16) -> (status: Int, headers: [String: String])) throws {
        (listener, port) = try LoopbackSocket.openListener(port: 0)
        wake = try LoopbackSocket.makeWakePipe()
        self.route = route
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// The server's URL for `path`.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops serving and closes the socket.
    func close() { LoopbackSocket.wake(wake.write) }

    private func serve() {
        defer {
            LoopbackSocket.closeDescriptor(listener)
            LoopbackSocket.closeDescriptor(wake.read)
            LoopbackSocket.closeDescriptor(wake.write)
        }
        while true {
            let ready = LoopbackSocket.waitReadable([listener, wake.read], until: Date().addingTimeInterval(120))
            if ready.isEmpty || ready.contains(wake.read) { return }
            guard let client = LoopbackSocket.acceptConnection(listener) else { continue }
            defer { LoopbackSocket.closeDescriptor(client) }
            let deadline = Date().addingTimeInterval(10)
            guard let head = LoopbackSocket.readRequestHead(client, until: deadline) else { continue }
            let lines = head.components(separatedBy: "\r\n")
            let requestLine = (lines.first ?? "").split(separator: " ")
            guard requestLine.count >= 2 else { continue }
            let path = String(requestLine[1])
            let authorized = lines.dropFirst().contains { $0.lowercased().hasPrefix("authorization:") }
            received.withLock { $0.append(Received(method: String(requestLine[0]), path: path, hasAuthorization: authorized)) }
            let (status, headers) = route(path, port)
            var text = "HTTP/1.1 \(status) Status\r\nContent-Length: 2\r\nConnection: close\r\n"
            for (name, value) in headers { text += "\(name): \(value)\r\n" }
            text += "\r\nok"
            LoopbackSocket.writeAll(Data(text.utf8), to: client, until: deadline)
        }
    }
}
