import Foundation
import RegState

/// A ``RegStateLogger`` that keeps every message in memory, for tests that assert what the engine logged (and that
/// it never logged a token).
public final class RecordingLogger: RegStateLogger {
    /// One logged message.
    public struct Entry: Sendable, Equatable {
        /// How much it mattered.
        public var level: RegStateLogLevel
        /// The text.
        public var message: String
    }

    private let recorded = LockedValue<[Entry]>([])

    /// Creates an empty logger.
    public init() {}

    /// Records `message` at `level`.
    public func log(_ level: RegStateLogLevel, _ message: String) {
        recorded.withLock { $0.append(Entry(level: level, message: message)) }
    }

    /// Every message so far, oldest first.
    public var entries: [Entry] { recorded.withLock { $0 } }

    /// The messages at `level` or above, oldest first.
    public func messages(atLeast level: RegStateLogLevel = .debug) -> [String] {
        entries.filter { $0.level >= level }.map(\.message)
    }
}
