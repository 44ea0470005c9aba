import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// Issue 43, B: a pushed `request_uri` is a short reference (PAR exists to keep the browser's URL short), and a pushed
/// sign-in page that dies while the user has not finished is pushed again as the same login.
@Suite("Engine: the pushed request_uri's bound, and a page pushed again")
struct PushedRequestURIRuleTests {
    @Test("Given a provider whose request_uri is longer than 512 characters, when a social login begins, then F malformed_response, no browser URL, nothing pending; at 512 it is taken",
          arguments: [(10_000, false), (600, false), (512, true)])
    func requestURIBound(_ length: Int, _ taken: Bool) async throws {
        let device = try PARDevice { $0.pushedAuthorization = .required }
        // The simulator's reference is the RFC's prefix and a 43-character token: pad it to `length`.
        await device.simulator.setPushedRequestURIPadding(length - "urn:ietf:params:oauth:request_uri:".count - 43)
        let service = device.launch()
        #expect(await service.start() == .registrationRequired)
        do {
            let url = try await service.beginSocialRegistration()
            #expect(taken, "a \(length)-character request_uri was opened: \(url.absoluteString.count) characters")
            let requestURI = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
                .first { $0.name == "request_uri" }?.value
            #expect(requestURI?.count == length)
        } catch {
            guard case .registration(.malformedResponse(let reason)) = error else {
                Issue.record("not a malformed answer: \(error)")
                return
            }
            #expect(!taken, "refused: \(reason)")
            #expect(reason.contains("longer than 512"))
            #expect(await service.pendingSocialLogin() == nil)
            #expect(await PARDevice.failure(of: service)?.reasonCode == "malformed_response")
        }
    }

    @Test("Given a pushed login whose page expired, when it is reopened, then the same login is pushed again: a new URL, and a redirect for either page registers")
    func pushedAgainKeepsTheLogin() async throws {
        for finishWithFirstPage in [true, false] {
            let device = try PARDevice { $0.pushedAuthorization = .required; $0.pushedRequestLifetime = 60 }
            let service = device.launch()
            _ = await service.start()
            let first = try await service.beginSocialRegistration()
            // The user opened the first page at once and is still signing in on it when it expires for the app.
            let firstRedirect = try await device.simulator.authorize(first, as: "alice@example.com")
            device.device.clock.advance(by: 61)
            let pending = try #require(await service.pendingSocialLogin())
            #expect(pending.isAuthorizationURLExpired && !pending.isExpired)
            let second = try await service.reopenSocialLogin()
            #expect(second != first)
            #expect(await device.pushes() == 2)
            #expect(await service.pendingSocialLogin()?.isAuthorizationURLExpired == false)
            let redirect = finishWithFirstPage ? firstRedirect : try await device.simulator.authorize(second, as: "alice@example.com")
            _ = try await service.completeSocialRegistration(callback: redirect)
            #expect(await service.state.letter == "G", "finished with the \(finishWithFirstPage ? "first" : "second") page")
        }
    }
}
