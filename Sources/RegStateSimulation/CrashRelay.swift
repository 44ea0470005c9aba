import Foundation

/// Passes the incarnations a crash point killed to a handler set after the parts that report them were made (the
/// parts of a ``SimulatedSharedSession`` each kill the process in the other).
final class CrashRelay: @unchecked Sendable {
    // @unchecked: `handler` is guarded by `lock`.
    private let lock = NSLock()
    private var handler: (@Sendable (Int) -> Void)?

    /// Sends every later crash to `handler`.
    func route(_ handler: @escaping @Sendable (Int) -> Void) { lock.withLock { self.handler = handler } }

    /// Incarnation `incarnation` died at a crash point.
    func crashed(_ incarnation: Int) { lock.withLock { handler }?(incarnation) }
}
