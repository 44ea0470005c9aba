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

    /// Adds (or updates) a user in this provider's database through Django itself, with the provider's own Python
    /// (start.sh's venv) and settings, and returns the account with its `sub`. The shared peer directory is only
    /// read: the user lives in this test's state directory, like every token.
    ///
    /// - Throws: ``InteropError/scriptFailed(_:)``.
    func addUser(_ username: String, password: String, email: String, firstName: String,
                 lastName: String) async throws -> PeerAccount {
        guard let directory = Self.scriptsDirectory else { throw InteropError.scriptFailed("no interop-peer directory") }
        let environment = ProcessInfo.processInfo.environment
        let venv = environment["INTEROP_VENV"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.cache/interop-peer-venv")
        let program = """
            import os, sys
            sys.path.insert(0, sys.argv[1])
            os.environ["DJANGO_SETTINGS_MODULE"] = "settings"
            import django
            django.setup()
            from django.contrib.auth import get_user_model
            user, _ = get_user_model().objects.get_or_create(username=sys.argv[2])
            user.set_password(sys.argv[3])
            user.email, user.first_name, user.last_name, user.is_active = sys.argv[4], sys.argv[5], sys.argv[6], True
            user.save()
            print(user.pk)
            """
        let output = try await ChildProcess.run(
            venv + "/bin/python", ["-c", program, directory.path, username, password, email, firstName, lastName],
            environment: ["OIDC_STATE_DIR": stateDirectory.path], timeout: .seconds(60))
        let subject = output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard output.status == 0, Int(subject) != nil else {
            throw InteropError.scriptFailed("adding user \(username): exit \(output.status): \(output.stderr.suffix(500))")
        }
        return PeerAccount(username: username, password: password, email: email, subject: subject)
    }
}
