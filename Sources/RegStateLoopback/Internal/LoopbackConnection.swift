import Foundation

/// One browser connection the loopback server is serving: what it has sent so far, the answer being written back, and
/// the moment it is dropped whatever its state (each connection has its own deadline, so an idle or slow one never
/// holds up another).
struct LoopbackConnection {
    /// The connected socket.
    let descriptor: Int32
    /// When the connection is closed if it has not been answered and written by then.
    let deadline: Date
    /// The request head received so far.
    var received = Data()
    /// The response, once the head has been read; `nil` while still reading.
    var response: Data?
    /// How much of ``response`` has been written.
    var written = 0
    /// Whether the connection is to be closed unanswered (the peer left, or a write failed).
    var dropped = false

    /// The most a request head may be: a longer one is answered 400.
    static let headLimit = 16_384

    /// Whether the head is complete (the blank line arrived) or too long to wait for more.
    var headComplete: Bool {
        received.count >= Self.headLimit || received.range(of: Data("\r\n\r\n".utf8)) != nil
    }

    /// Whether the whole response has been written.
    var finished: Bool {
        guard let response else { return false }
        return written >= response.count
    }
}
