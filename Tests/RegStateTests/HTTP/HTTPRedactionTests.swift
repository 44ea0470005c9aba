import Foundation
import Testing
@testable import RegState
import RegStateSimulator

@Suite("HTTP values never show secrets")
struct HTTPRedactionTests {
    @Test("print, debugPrint and dump of a request and a response show no token, code or header")
    func redacted() throws {
        let request = HTTPRequest.form(
            url: try #require(URL(string: "https://idp.example/token?code=query-code")),
            parameters: [("refresh_token", "secret-refresh")], headers: ["Authorization": "Bearer secret-access"])
        let response = HTTPResponse.json(200, ["access_token": "secret-issued"])
        var dumped = ""
        dump(request, to: &dumped)
        dump(response, to: &dumped)
        let shown = [String(describing: request), String(reflecting: request), String(describing: response),
                     String(reflecting: response), dumped].joined(separator: "\n")
        for secret in ["query-code", "secret-refresh", "secret-access", "secret-issued", "Authorization"] {
            #expect(!shown.contains(secret), "\(secret) shown in: \(shown)")
        }
        #expect(shown.contains("POST https://idp.example/token"))
    }
}
