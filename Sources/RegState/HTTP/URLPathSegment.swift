import Foundation

/// The one way values from data (device, file, account, session IDs) go into URL paths: each percent-encoded as
/// exactly one segment, or refused (``PathSegmentError``) before a request exists.
package enum URLPathSegment {
    /// `value` as one path segment, everything but RFC 3986 `unreserved` (`/ ? # % ; =` too) percent-encoded;
    /// ``PathSegmentError`` for an empty value, `.` or `..`.
    package static func encoded(_ value: String) throws(PathSegmentError) -> String {
        switch value {
        case "": throw .empty
        case ".", "..": throw .dotSegment(value)
        default: return FormEncoding.escape(value)
        }
    }

    /// `base` with each of `segments` appended as one encoded segment (a trailing slash of `base` is ignored);
    /// ``PathSegmentError`` when any segment is refused.
    package static func appending(_ segments: [String], to base: URL) throws(PathSegmentError) -> URL {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: true) ?? URLComponents()
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        for segment in segments { path += "/" + (try encoded(segment)) }
        components.percentEncodedPath = path
        guard let url = components.url else {
            // The path is the base's own percent-encoded path plus unreserved bytes and `%XX`: always a URL.
            preconditionFailure("an encoded path did not make a URL")
        }
        return url
    }
}
