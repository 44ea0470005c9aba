import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting
import RegStateTestSupport

/// Issue 27: one forged redirect does not end a login in progress. Written as a rule over every way a redirect can
/// fail to match the pending login (its `state` wrong or missing, another issuer's `iss`, another redirect URI, no
/// code): it is refused with its reason, makes no token request, and leaves the login — in memory and in the
/// store — for the genuine redirect, in the same process and across a relaunch, however many come (issue 43).
@Suite("A forged redirect does not end a login in progress")
struct ForgedRedirectTests {
    typealias Forgery = RedirectForgery


    /// Hands `callback` in and returns the failure it was refused with (`nil` when it was accepted).
    static func refusal(_ service: RegStateService, _ callback: URL) async -> RegistrationFailure? {
        do {
            _ = try await service.completeSocialRegistration(callback: callback)
            return nil
        } catch RegStateServiceError.registration(let failure) {
            return failure
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test("in the same process: refused with its reason, no token request, the genuine redirect then registers",
          arguments: Forgery.allCases)
    func sameProcess(_ forgery: Forgery) async throws {
        let device = try FileStoreDevice()
        defer { device.remove() }
        let service = try device.launch()
        await service.start()
        let url = try await service.beginSocialRegistration()
        let genuine = try await device.simulator.authorize(url, as: "alice@example.com")
        let requests = await device.simulator.tokenRequestCount
        #expect(await Self.refusal(service, try #require(forgery.apply(to: genuine))) == forgery.failure)
        #expect(await device.simulator.tokenRequestCount == requests, "a refused redirect made a token request")
        #expect(await service.state == .authenticating(.social))
        #expect(try device.record()?.refusedRedirects == nil, "a refused redirect writes nothing")
        #expect(await Self.refusal(service, genuine) == nil)
        guard case .awaitingConfirmation = await service.state else {
            Issue.record("the genuine redirect did not register: \(await service.state)")
            return
        }
        #expect(try device.record() == nil)
    }

    @Test("across relaunches: a forged redirect in one run leaves the login for the genuine one in the next",
          arguments: Forgery.allCases)
    func acrossRelaunch(_ forgery: Forgery) async throws {
        let device = try FileStoreDevice()
        defer { device.remove() }
        var first: RegStateService? = try device.launch()
        await first?.start()
        let url = try #require(try await first?.beginSocialRegistration())
        first = nil
        let genuine = try await device.simulator.authorize(url, as: "alice@example.com")

        let second = try device.launch()
        #expect(await second.start() == .registrationRequired)
        #expect(await Self.refusal(second, try #require(forgery.apply(to: genuine))) == forgery.failure)
        #expect(await second.pendingSocialLogin()?.authorizationURL == url)

        let third = try device.launch()
        await third.start()
        #expect(await Self.refusal(third, genuine) == nil)
        #expect(try device.record() == nil)
    }

    @Test("Given a pending login, when forty forged redirects come (any web page can send them), in this process and another, then each is refused, none ends the login or writes the store, and the genuine one completes")
    func noBound() async throws {
        // Issue 43: four forged redirects to the loopback port (an <img> on any page open in the browser) ended the
        // login with tooManyRefusedRedirects and discarded it; the genuine redirect then found nothing.
        let device = try FileStoreDevice()
        defer { device.remove() }
        let service = try device.launch()
        await service.start()
        let url = try await service.beginSocialRegistration()
        let genuine = try await device.simulator.authorize(url, as: "alice@example.com")
        let stored = try device.record()
        for attempt in 1...40 {
            // Alternate processes: neither the one holding the login nor a relaunched one lets a refusal end it.
            var handler = service
            if attempt.isMultiple(of: 5) {
                handler = try device.launch()
                await handler.start()
            }
            let forgery = Forgery.allCases[attempt % Forgery.allCases.count]
            let refusal = await Self.refusal(handler, try #require(forgery.apply(to: genuine)))
            #expect(refusal?.keepsAttempt(of: .authorizationCode) == true, "attempt \(attempt) (\(forgery)): \(String(describing: refusal))")
            #expect(try device.record() == stored, "a refused redirect changes nothing in the store")
        }
        #expect(await service.state == .authenticating(.social))
        #expect(await Self.refusal(service, genuine) == nil)
        #expect(await service.state.letter == "G")
    }

    /// How the provider's metadata cannot be read when a relaunched process checks its first redirect.
    enum Outage: String, CaseIterable, Sendable { case down, redirected }

    @Test("a redirect that cannot be checked after a relaunch (metadata unreadable): refused, the login kept for the genuine one",
          arguments: [nil] + Forgery.allCases.map(Optional.some), Outage.allCases)
    func uncheckedAfterRelaunch(_ forgery: Forgery?, _ outage: Outage) async throws {
        // Seed 50 of the forged-redirect world: the check needs the provider's metadata, which a relaunched process
        // has not read yet; when it could not be read, the exchange took the login first and then failed, so one
        // forged redirect during an outage lost the sign-in.
        let device = try FileStoreDevice()
        defer { device.remove() }
        var first: RegStateService? = try device.launch()
        await first?.start()
        let url = try #require(try await first?.beginSocialRegistration())
        first = nil
        let genuine = try await device.simulator.authorize(url, as: "alice@example.com")
        // Seed 631: a proxy's 307 at discovery, not only an outage.
        let redirecting = RecordingTransport(base: device.simulator.transport) { request, earlier, base throws(TransportError) in
            guard request.url.path.hasSuffix("openid-configuration"), earlier == 0 else { return try await base.send(request) }
            return HTTPResponse(status: 307, headers: ["Location": "https://elsewhere.example/"])
        }
        let second = try device.launch(transport: outage == .redirected ? redirecting : nil)
        await second.start()
        if outage == .down { await device.simulator.setProviderDown(true) }
        let refused = await Self.refusal(second, try forgery.map { try #require($0.apply(to: genuine)) } ?? genuine)
        #expect(refused != nil && refused?.keepsAttempt(of: .authorizationCode) == false, "\(String(describing: refused))")
        #expect(try device.record() != nil, "the login is kept in the store")
        #expect(await second.pendingSocialLogin()?.authorizationURL == url)
        await device.simulator.setProviderDown(false)
        #expect(await Self.refusal(second, genuine) == nil)
        guard case .awaitingConfirmation = await second.state else {
            Issue.record("the genuine redirect did not register: \(await second.state)")
            return
        }
    }
}

extension RedirectForgery {
    /// The failure the engine refuses this forgery with.
    var failure: RegistrationFailure {
        switch self {
        case .wrongState, .noState: .stateMismatch
        case .otherIssuer: .issuerMismatchInCallback
        case .otherRedirect: .malformedCallback("wrong path")
        case .noCode: .malformedCallback("no code")
        }
    }
}
