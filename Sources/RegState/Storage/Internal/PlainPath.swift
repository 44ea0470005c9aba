import Foundation

/// The store's and journal's file paths as strings: `URL`'s path code is a large share of what a short
/// `regstate status` process loads, and a path already absolute and plain needs none of it.
package enum PlainPath {
    /// Whether `path` is absolute and already what `URL` would make of it: no empty, `.` or `..` component or trailing
    /// slash, no automount prefix `standardizedFileURL` strips, only characters `URL` keeps as they are.
    package static func isPlain(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard bytes.count > 1, bytes[0] == UInt8(ascii: "/"), bytes.last != UInt8(ascii: "/"),
              !path.hasPrefix("/private/"), !path.hasPrefix("/var/automount/") else { return false }
        var component = 0  // bytes in the current component, or -1 once it is not all dots
        for byte in bytes.dropFirst() {
            if byte == UInt8(ascii: "/") {
                guard component < 0 || component > 2 else { return false }
                component = 0
            } else if byte == UInt8(ascii: ".") {
                if component >= 0 { component += 1 }
            } else if isPlainByte(byte) {
                component = -1
            } else {
                return false
            }
        }
        return component < 0 || component > 2
    }

    /// `URL(fileURLWithPath: path).standardizedFileURL.path`, without `URL` when `path` is plain.
    package static func standardized(_ path: String) -> String {
        isPlain(path) ? path : URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The path of `name` inside the directory at `directory` (a standardized path).
    package static func appending(_ name: String, to directory: String) -> String {
        directory == "/" ? "/" + name : directory + "/" + name
    }

    /// The directory holding the file at `path` (a standardized path).
    package static func parent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// The last component of `path` (a standardized path).
    package static func lastComponent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// Whether a plain path may hold `byte` (besides `/` and `.`).
    private static func isPlainByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "@"), UInt8(ascii: "~"), UInt8(ascii: " "):
            true
        default:
            false
        }
    }
}
