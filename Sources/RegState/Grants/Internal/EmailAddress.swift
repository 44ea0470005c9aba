import Foundation

/// A deliberately simple email syntax check: catches typos before a round trip, leaves the real check to the
/// provider (which sends the code or not). The simulator's provider uses the same rule.
package enum EmailAddress {
    /// One `@`; a non-empty local part; a domain of at least two non-empty dot-separated labels; no whitespace,
    /// commas, semicolons or angle brackets; at most 254 characters.
    package static func isValid(_ text: String) -> Bool {
        problem(text) == nil
    }

    /// What is wrong with `text` as an email address, in words a user can act on (`nil` when it passes the check).
    /// The text itself is never repeated, so the answer can be printed or logged.
    package static func problem(_ text: String) -> String? {
        if text.isEmpty { return "it is empty" }
        if text.count > 254 { return "it is longer than 254 characters" }
        if text.contains(where: \.isWhitespace) { return "it contains a space" }
        if let character = text.first(where: { ",;<>\"".contains($0) }) { return "it contains \(character)" }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return parts.count == 1 ? "it has no @" : "it has more than one @" }
        if parts[0].isEmpty { return "nothing comes before the @" }
        if parts[0].count > 64 { return "the part before the @ is longer than 64 characters" }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        if parts[1].isEmpty { return "nothing comes after the @" }
        guard labels.count >= 2 else { return "the domain after the @ has no dot (like example.com)" }
        if labels.contains(where: \.isEmpty) { return "the domain after the @ has an empty part between dots" }
        if labels.contains(where: { $0.hasPrefix("-") || $0.hasSuffix("-") }) {
            return "a part of the domain starts or ends with -"
        }
        return nil
    }
}
