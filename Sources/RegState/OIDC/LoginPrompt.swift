import Foundation

/// What the provider shows before it signs a user in again (the OIDC `prompt` parameter, OIDC Core §3.1.2.1).
public enum LoginPrompt: String, Sendable, Equatable, CaseIterable {
    /// `prompt=login`: ask for the user's credentials even when the browser is still signed in.
    case login
    /// `prompt=select_account`: show the account chooser, so that another account can be picked.
    case selectAccount = "select_account"
}
