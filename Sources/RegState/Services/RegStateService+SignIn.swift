import Foundation

extension RegStateService {
    /// When and how strongly the session's user signed in (`auth_time` and `acr` of the stored ID token, as this
    /// service last read or wrote it, like ``RegStateService/tokenBinding()``), `nil` without a session's ID token
    /// (none stored, the non-native token, a store that cannot be read now).
    public func signInAssurance() async -> SignInAssurance? {
        SignInAssurance(idToken: await runner.tokens.lastSeenSnapshot()?.idToken)
    }
}
