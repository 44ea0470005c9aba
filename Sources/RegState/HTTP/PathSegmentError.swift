import Foundation

/// Why a value from data (a device, file, account or session ID) cannot be one segment of a URL path, whatever the
/// encoding (an HTTP stack resolves dot segments, RFC 3986 §5.2.4); refused before anything is sent.
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
