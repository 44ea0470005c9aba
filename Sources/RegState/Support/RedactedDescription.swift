import Foundation

/// A value that holds a token, a key or another secret, and shows only its redacted `description` in all three
/// views a developer meets it in: `print`, `debugPrint` (the debugger's `po`) and `dump` (the debugger's variable view).
///
/// A conforming type writes `description` and nothing else; a type whose mirror may show non-secret fields writes its
/// own `customMirror`.
public protocol RedactedDescription: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {}

extension RedactedDescription {
    /// The redacted `description`.
    public var debugDescription: String { description }

    /// A mirror holding the redacted `description` only.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
