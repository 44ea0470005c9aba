import Foundation
import RegStateWebAuthentication
import Testing

/// The callback a browser sheet watches for, read from the app's redirect URI, and which URLs end a sign-in.
@Suite("Web authentication: the callback")
struct WebAuthenticationCallbackTests {
    @Test("a custom-scheme redirect URI watches for its scheme, lowercased (RFC 8252 §7.1)", arguments: [
        ("com.example.app:/callback", "com.example.app"), ("com.Example.App:/cb", "com.example.app"),
        ("myapp://auth/done", "myapp"),
    ])
    func customScheme(uri: String, scheme: String) throws {
        let callback = try WebAuthenticationCallback(redirectURI: try #require(URL(string: uri)))
        #expect(callback == .customScheme(scheme))
        #expect(callback.matches(try #require(URL(string: "\(scheme):/callback?code=c&state=s"))))
        #expect(!callback.matches(try #require(URL(string: "https://example.com/callback?code=c"))))
    }

    @Test("an https redirect URI watches for its host and exact path (RFC 8252 §7.2)")
    func https() throws {
        let callback = try WebAuthenticationCallback(redirectURI: try #require(URL(string: "https://App.Example.com/auth/cb")))
        #expect(callback == .https(host: "app.example.com", path: "/auth/cb"))
        #expect(callback.matches(try #require(URL(string: "https://app.example.com/auth/cb?code=c&state=s"))))
        #expect(!callback.matches(try #require(URL(string: "https://app.example.com/auth/cb/more?code=c"))))
        #expect(!callback.matches(try #require(URL(string: "https://evil.example.com/auth/cb?code=c"))))
        #expect(!callback.matches(try #require(URL(string: "http://app.example.com/auth/cb?code=c"))))
        let root = try WebAuthenticationCallback(redirectURI: try #require(URL(string: "https://app.example.com")))
        #expect(root == .https(host: "app.example.com", path: "/"))
    }

    @Test("a redirect URI no browser sheet can end on is refused: http (a loopback listener's), no host, no scheme",
          arguments: ["http://127.0.0.1:8080/callback", "https:///callback", "/callback"])
    func refused(uri: String) throws {
        let url = try #require(URL(string: uri))
        #expect(throws: WebAuthenticationError.unsupportedRedirectURI(url)) { try WebAuthenticationCallback(redirectURI: url) }
    }

    @Test("cancellation is its own case with a sentence, and no case's sentence is empty")
    func errors() throws {
        let cases: [WebAuthenticationError] = [
            .cancelled, .presentationUnavailable, .notStarted, .httpsCallbackUnavailable, .unexpectedCallback,
            .failed("x"), .unsupportedRedirectURI(try #require(URL(string: "http://127.0.0.1/cb"))),
        ]
        #expect(cases.filter { $0 == .cancelled }.count == 1)
        for error in cases { #expect(error.errorDescription?.isEmpty == false) }
    }
}
