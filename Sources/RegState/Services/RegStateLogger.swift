/// Where RegState writes its diagnostics: the host supplies it (a library never builds its own logger).
///
/// Messages never contain token material: events and errors are redacted by construction.
public protocol RegStateLogger: Sendable {
    /// Records `message` at `level`.
    func log(_ level: RegStateLogLevel, _ message: String)
}

/// How much a log message matters.
public enum RegStateLogLevel: Int, Sendable, Comparable, CaseIterable {
    /// Step-by-step detail.
    case debug
    /// Normal milestones.
    case info
    /// Something went wrong but the engine carried on.
    case warning
    /// Something failed.
    case error

    /// Orders levels by severity.
    public static func < (lhs: RegStateLogLevel, rhs: RegStateLogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A logger that discards everything: the default.
public struct SilentLogger: RegStateLogger {
    /// Creates the logger.
    public init() {}
    /// Discards the message.
    public func log(_ level: RegStateLogLevel, _ message: String) {}
}
