import Foundation
import RegState

/// The transports of configured sessions, by the id their configuration's header names. A registration lives as
/// long as the process: a configuration can be copied into any number of sessions.
///
/// `@unchecked Sendable` is safe: `transports` is read and written only while `lock` is held.
final class TransportRegistry: @unchecked Sendable {
    static let shared = TransportRegistry()
    private let lock = NSLock()
    /// A transport's id is its position, counted from 1; its policy says which URLs it lists.
    private var transports: [(transport: AuthorizedTransport, policy: TokenPolicy)] = []

    func register(_ transport: AuthorizedTransport, policy: TokenPolicy) -> String {
        lock.withLock {
            transports.append((transport, policy))
            return String(transports.count)
        }
    }

    func transport(_ id: String) -> AuthorizedTransport? {
        guard let position = Int(id) else { return nil }
        return lock.withLock { transports.indices.contains(position - 1) ? transports[position - 1].transport : nil }
    }

    func transport(for url: URL) -> AuthorizedTransport? {
        lock.withLock { transports.last { $0.policy.matches(url) }?.transport }
    }
}
