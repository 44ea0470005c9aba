import Foundation

/// Why a value from data (a device ID typed by the user or listed by a backend, a file or account ID, a session key)
/// cannot be one segment of a URL path. Refused before anything is sent.
///
/// Every other value is sent as exactly one segment, percent-encoded (by `URLPathSegment`): `/`, `?`, `#` and `%`
/// cannot leave it. These values cannot be one segment whatever the encoding: an HTTP stack resolves dot segments
/// (RFC 3986 §5.2.4), so `…/devices/.` is `…/devices/` (the whole collection) and `…/devices/..` is `…/`, and an empty
/// segment names the collection too.
public enum PathSegmentError: Error, Sendable, Equatable {
    /// The value is empty.
    case empty
    /// The value is `.` or `..` (carried: it is an identifier, never a secret).
    case dotSegment(String)
}

extension PathSegmentError: LocalizedError {
    /// A sentence for people.
    public var errorDescription: String? {
        switch self {
        case .empty: "An empty ID names no item (it would address the whole collection); nothing was sent."
        case .dotSegment(let value):
            "The ID \"\(value)\" is a dot segment (it would address the collection or its parent); nothing was sent."
        }
    }
}
