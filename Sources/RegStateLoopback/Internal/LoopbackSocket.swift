import Foundation
import RegState
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers over the BSD socket calls the loopback listener needs, so the listener reads as logic.
///
/// Every function returns a Swift value or throws ``LoopbackListenerError``; none blocks without a timeout.
enum LoopbackSocket {
    /// A listening TCP socket on 127.0.0.1:`port` (0 for an ephemeral port), non-blocking; returns it and its port.
    static func openListener(port: UInt16) throws(LoopbackListenerError) -> (descriptor: Int32, port: UInt16) {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw .socketFailed("socket: \(POSIX.errorText(errno))") }
        // A failed call's message, read before the descriptor is closed (which may change `errno`).
        func failed(_ call: String) -> LoopbackListenerError {
            let detail = POSIX.errorText(errno)
            _ = close(descriptor)
            return .socketFailed("\(call): \(detail)")
        }
        var reuse: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &reuse, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw failed("bind 127.0.0.1:\(port)") }
        guard listen(descriptor, 8) == 0, setNonBlocking(descriptor) else { throw failed("listen") }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw failed("getsockname") }
        return (descriptor, UInt16(bigEndian: actual.sin_port))
    }

    /// Waits until one of `descriptors` is readable or `deadline` passes; returns the readable ones (empty on
    /// timeout, `deadline` read on `clock`). Retries on `EINTR`.
    static func waitReadable(
        _ descriptors: [Int32], until deadline: Date, clock: any RegStateClock = SystemClock()
    ) -> Set<Int32> {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            let remaining = deadline.timeIntervalSince(clock.now())
            if remaining <= 0 { return [] }
            let milliseconds = Int32(min(remaining * 1000, Double(Int32.max)).rounded(.up))
            let count = fds.withUnsafeMutableBufferPointer { buffer in
                poll(buffer.baseAddress, nfds_t(buffer.count), milliseconds)
            }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return [] }
            return Set(fds.filter { $0.revents != 0 }.map(\.fd))
        }
    }

    /// What one `recv` on a non-blocking socket gave.
    enum Received {
        /// Bytes.
        case data(Data)
        /// Nothing yet.
        case wouldBlock
        /// The peer closed its side, or the socket failed.
        case ended
    }

    /// One non-blocking `recv` of at most `limit` bytes (at least one).
    static func receive(_ descriptor: Int32, limit: Int) -> Received {
        var buffer = [UInt8](repeating: 0, count: max(1, min(limit, 4096)))
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 { return .data(Data(buffer[0..<count])) }
        if count < 0, errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
        return .ended
    }

    /// Writes what the socket takes now of `connection`'s response; a failed write drops the connection.
    static func writeSome(_ connection: inout LoopbackConnection) {
        guard let response = connection.response, connection.written < response.count else { return }
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        let offset = connection.written
        let sent = response.withUnsafeBytes { bytes in
            send(connection.descriptor, bytes.baseAddress.map { $0 + offset }, response.count - offset, flags)
        }
        if sent > 0 {
            connection.written += sent
        } else if !(sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            connection.dropped = true
        }
    }

    /// One `poll` over `fds` until `deadline` (read on `clock`; `nil`: no deadline, until something is ready);
    /// `true` when something is ready, `false` when the deadline passed or the call was interrupted.
    static func waitReady(_ fds: inout [pollfd], until deadline: Date?, clock: any RegStateClock) -> Bool {
        var milliseconds: Int32 = -1
        if let deadline {
            let remaining = deadline.timeIntervalSince(clock.now())
            if remaining <= 0 { return false }
            milliseconds = Int32(min(remaining * 1000, Double(Int32.max)).rounded(.up))
        }
        let count = fds.withUnsafeMutableBufferPointer { buffer in
            poll(buffer.baseAddress, nfds_t(buffer.count), milliseconds)
        }
        return count > 0
    }

    /// Accepts one pending connection, or `nil` when none is pending.
    static func acceptConnection(_ descriptor: Int32) -> Int32? {
        let client = accept(descriptor, nil, nil)
        guard client >= 0 else { return nil }
        return setNonBlocking(client) ? client : nil
    }

    /// Reads an HTTP request head (up to the blank line, at most 16 KiB) from `client` before `deadline`.
    static func readRequestHead(
        _ client: Int32, until deadline: Date, clock: any RegStateClock = SystemClock()
    ) -> String? {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let terminator = Data("\r\n\r\n".utf8)
        while received.count < 16_384 {
            if received.range(of: terminator) != nil { break }
            guard waitReadable([client], until: deadline, clock: clock).contains(client) else { return nil }
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
            guard count > 0 else { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return String(data: received, encoding: .utf8)
    }

    /// Writes all of `data` to `client`, giving up on error or after `deadline`.
    static func writeAll(
        _ data: Data, to client: Int32, until deadline: Date, clock: any RegStateClock = SystemClock()
    ) {
        var offset = 0
        while offset < data.count, deadline.timeIntervalSince(clock.now()) > 0 {
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            let written = data.withUnsafeBytes { bytes in
                send(client, bytes.baseAddress.map { $0 + offset }, data.count - offset, flags)
            }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                var fds = [pollfd(fd: client, events: Int16(POLLOUT), revents: 0)]
                _ = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, 1, 100) }
            } else {
                return
            }
        }
    }

    /// A pipe whose write end wakes a `poll` on its read end: how ``LoopbackRedirectListener/close()`` and task
    /// cancellation interrupt a wait without polling in slices.
    static func makeWakePipe() throws(LoopbackListenerError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw .socketFailed("pipe: \(POSIX.errorText(errno))") }
        _ = setNonBlocking(ends[0])
        _ = setNonBlocking(ends[1])
        return (ends[0], ends[1])
    }

    /// Writes one byte to a wake pipe.
    static func wake(_ descriptor: Int32) {
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
    }

    /// Reads and discards whatever a (non-blocking) wake pipe holds.
    static func drain(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Closes a descriptor.
    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    private static func setNonBlocking(_ descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFL, 0)
        return flags >= 0 && fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0
    }
}
