import Foundation
import RegState
import Testing

/// Finding 1, without a provider: the provider redirects to `com.example.app:/callback?code=…` (the registered
/// RFC 8252 §7.1 form), but the user agent may hand the app `com.example.app://callback/?code=…` (login.sh's curl
/// does). Both are the same redirect; anything else is still refused.
@Suite("Custom-scheme callback forms")
struct CallbackFormTests {
    static let expected = URL(string: "com.example.app:/callback")!

    static func code(_ callback: String) throws(RegistrationFailure) -> String {
        try AuthorizationCallback.code(from: URL(string: callback)!, expectedRedirect: expected, expectedState: "s",
                                       issuer: "http://127.0.0.1/o", issuerRequired: false)
    }

    @Test("the single-slash form and the authority forms a user agent makes of it are accepted", arguments: [
        "com.example.app:/callback?code=c&state=s",
        "com.example.app://callback/?code=c&state=s",
        "com.example.app://callback?code=c&state=s",
        "COM.EXAMPLE.APP:/callback?code=c&state=s",
    ])
    func acceptedForms(_ callback: String) throws {
        #expect(try Self.code(callback) == "c")
    }

    @Test("another scheme, location or path is refused", arguments: [
        "com.other.app:/callback?code=c&state=s",
        "com.example.app://evil/callback?code=c&state=s",
        "com.example.app:/callback/extra?code=c&state=s",
        "com.example.app:/other?code=c&state=s",
        "com.example.app://callback:8080/?code=c&state=s",
    ])
    func refusedForms(_ callback: String) {
        #expect(throws: RegistrationFailure.self) { try Self.code(callback) }
    }
}
