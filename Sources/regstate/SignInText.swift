import Foundation

/// How long ago a sign-in was, in words a person reads at a glance, coarse enough that a walkthrough prints the same
/// text each time it runs.
enum SignInText {
    /// `seconds` ago: "less than a minute ago", "N min ago", "N h ago", "N days ago".
    static func ago(_ seconds: Int) -> String {
        switch seconds {
        case ..<60: "less than a minute ago"
        case ..<3_600: "\(seconds / 60) min ago"
        case ..<172_800: "\(seconds / 3_600) h ago"
        default: "\(seconds / 86_400) days ago"
        }
    }
}
