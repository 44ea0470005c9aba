import Foundation

/// A user the harness seeds at the provider (besides the seed's alice), and the provider's own accounts as a browser
/// signs in with them.
struct PeerAccount: Sendable {
    /// The login name the provider's login form asks for.
    var username: String
    /// The password.
    var password: String
    /// The email the ID token carries.
    var email: String
    /// The `sub` the provider gives this user (Django's user id).
    var subject: String

    /// The seed's user (seed.py).
    static let alice = PeerAccount(username: "alice", password: "alice-password", email: "alice@example.com",
                                   subject: InteropPeer.aliceSubject)
}

extension InteropPeer {
    /// The post-logout redirect URI the seed registers for the public client (nobody serves it; the browser's visit
    /// ends there).
    static let postLogoutRedirect = URL(string: "http://127.0.0.1:8765/logged-out")!

    /// The provider's origin, where a ``Browser`` follows redirects.
    var origin: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Adds (or updates) a user in this provider's database through Django itself (the kit's `peer.py add-user`, with
    /// its Python environment), and returns the account with its `sub`. The user lives in this test's state directory,
    /// like every token.
    ///
    /// - Throws: ``InteropError/scriptFailed(_:)``.
    func addUser(_ username: String, password: String, email: String, firstName: String,
                 lastName: String) async throws -> PeerAccount {
        let output = try await ChildProcess.run(
            Self.kit.python, [try Self.script("provider/peer.py"), "add-user", username, password, email, firstName, lastName],
            environment: ["OIDC_STATE_DIR": stateDirectory.path], timeout: .seconds(60))
        let subject = output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard output.status == 0, Int(subject) != nil else {
            throw InteropError.scriptFailed("adding user \(username): exit \(output.status): \(output.stderr.suffix(500))")
        }
        return PeerAccount(username: username, password: password, email: email, subject: subject)
    }
}
