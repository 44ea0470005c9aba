import Foundation

/// The calls still running, so that a run stuck on one names it.
public final class PendingCalls: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var calls: [Int: String] = [:]
    private var next = 0

    func begin(_ label: String) -> Int { lock.withLock { next += 1; calls[next] = label; return next } }
    func end(_ id: Int) { lock.withLock { _ = calls.removeValue(forKey: id) } }
    /// The labels of the calls that have not returned, oldest first.
    public var open: [String] { lock.withLock { calls.sorted { $0.key < $1.key }.map(\.value) } }
}
