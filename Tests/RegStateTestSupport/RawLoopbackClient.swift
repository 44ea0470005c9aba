import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP client on 127.0.0.1, for tests that play a browser, a speculative preconnect, a slow local process or
/// a forged redirect against a loopback listener: real sockets, each call bounded by a generous deadline.
///
/// `@unchecked Sendable` is safe: the descriptor is immutable and closed once, under `lock`.
public final class RawLoopbackClient: @unchecked Sendable {
    /// What a request got.
    public enum Outcome: Equatable, Sendable {
        /// Connected, and this status line's code came back.
        case answered(status: Int, body: String)
        /// Connected, and the server closed without an answer.
        case closedUnanswered
        /// Nothing listens on the port.
        case refused
        /// Connected, but nothing came back before the deadline.
        case timedOut

        /// Whether this is an answer with `status`.
        public func isAnswered(_ status: Int) -> Bool {
            if case .answered(status, _) = self { return true }
            return false
        }
    }

    private let descriptor: Int32
    private let lock = NSLock()
    private var closed = false

    /// Connects to 127.0.0.1:`port`; `nil` when the connection is refused.
    public init?(port: UInt16) {
        #if canImport(Glibc)
        let made = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let made = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard made >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(made, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            _ = systemClose(made)
            return nil
        }
        descriptor = made
    }

    deinit { close() }

    /// Sends `text` (blocking; loopback takes it at once).
    @discardableResult
    public func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        return bytes.withUnsafeBytes { systemSend(descriptor, $0.baseAddress, $0.count, flags) } == bytes.count
    }

    /// Everything the server sends until it closes, or `nil` when `deadline` seconds pass first.
    public func readToEnd(deadline seconds: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return nil }
            var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            let ready = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, 1, Int32(remaining * 1000) + 1) }
            if ready < 0, errno == EINTR { continue }
            if ready <= 0 { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return String(decoding: received, as: UTF8.self) }
            received.append(contentsOf: buffer[0..<count])
        }
    }

    /// Closes the connection (the first call only).
    public func close() {
        let first = lock.withLock { () -> Bool in
            defer { closed = true }
            return !closed
        }
        if first { _ = systemClose(descriptor) }
    }

    /// `GET target` on 127.0.0.1:`port` as a browser sends it, and what came back within `deadline` seconds.
    public static func get(port: UInt16, target: String, deadline: TimeInterval = 30) -> Outcome {
        guard let client = RawLoopbackClient(port: port) else { return .refused }
        client.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        guard let text = client.readToEnd(deadline: deadline) else { return .timedOut }
        let statusLine = text.split(separator: "\r\n", maxSplits: 1).first ?? ""
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return .closedUnanswered }
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return .answered(status: status, body: body)
    }

    /// ``get(port:target:deadline:)`` on a thread of its own: its socket calls block, and a busy test run shares a few
    /// cooperative threads among every suite, so a blocked one could keep the listener's redirect from being sent.
    public static func fetch(port: UInt16, target: String, deadline: TimeInterval = 30) async -> Outcome {
        await Fetch(port: port, target: target, deadline: deadline).outcome
    }

    /// A ``get(port:target:deadline:)`` already under way on a thread of its own, started when it is made: unlike
    /// `Task { await fetch(…) }`, whose request leaves only once a cooperative thread is free to start it (on a busy
    /// run every one may be blocked for longer than a test's bound), the request leaves at once.
    ///
    /// `@unchecked Sendable` is safe: `state` is read and written under `lock` only.
    public final class Fetch: @unchecked Sendable {
        private let lock = NSLock()
        private var state: (outcome: Outcome?, waiters: [CheckedContinuation<Outcome, Never>]) = (nil, [])

        /// Starts `GET target` on 127.0.0.1:`port` now.
        public init(port: UInt16, target: String, deadline: TimeInterval = 30) {
            Thread { [self] in
                let outcome = RawLoopbackClient.get(port: port, target: target, deadline: deadline)
                let waiters = lock.withLock { () -> [CheckedContinuation<Outcome, Never>] in
                    state.outcome = outcome
                    defer { state.waiters = [] }
                    return state.waiters
                }
                waiters.forEach { $0.resume(returning: outcome) }
            }.start()
        }

        /// What the request got, once it has.
        public var outcome: Outcome {
            get async {
                await withCheckedContinuation { continuation in
                    let done = lock.withLock { () -> Outcome? in
                        if let outcome = state.outcome { return outcome }
                        state.waiters.append(continuation)
                        return nil
                    }
                    if let done { continuation.resume(returning: done) }
                }
            }
        }
    }

    /// The request target (path and query) of `url`, as a browser sends it.
    public static func target(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        return (components?.percentEncodedPath ?? "/") + (components?.percentEncodedQuery.map { "?\($0)" } ?? "")
    }
}

#if canImport(Glibc)
private func systemClose(_ descriptor: Int32) -> Int32 { Glibc.close(descriptor) }
private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    Glibc.send(descriptor, bytes, count, flags)
}
#else
private func systemClose(_ descriptor: Int32) -> Int32 { Darwin.close(descriptor) }
private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    Darwin.send(descriptor, bytes, count, flags)
}
#endif
