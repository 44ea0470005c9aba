import Foundation

/// A deliberately simple email syntax check: catches typos before a round trip, leaves the real check to the
/// provider (which sends the code or not). The simulator's provider uses the same rule.
package enum EmailAddress {
    /// One `@`; a non-empty local part; a domain of at least two non-empty dot-separated labels; no whitespace,
    /// commas, semicolons or angle brackets; at most 254 characters.
    package static func isValid(_ text: String) -> Bool {
        guard text.count <= 254,
              !text.contains(where: { $0.isWhitespace || ",;<>\"".contains($0) })
        else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64 else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty && !$0.hasPrefix("-") && !$0.hasSuffix("-") }
    }
}
