import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// An RFC 9470 challenge at the authorized transport: no renewal (counted at the provider), no retry, a typed error
/// carrying what the API asked for; the session keeps working for calls that do not need the step-up.
@Suite("Step-up: the API's challenge costs no renewal")
struct StepUpTransportTests {
    static let payments = URL(string: "https://api.regstate.sim/v1/resource/payments")!
    static let profile = URL(string: "https://api.regstate.sim/v1/resource/profile")!

    static func transport(_ device: SimulatedDevice, _ service: RegStateService) -> AuthorizedTransport {
        AuthorizedTransport(base: device.simulator.transport, service: service,
                            policy: TokenPolicy(validatingURLs: [URL(string: "https://api.regstate.sim/v1/resource")!]))
    }

    @Test("Given an API demanding max_age, when the sign-in is older, then stepUpRequired(max_age) and zero refresh-token grants",
          arguments: ["plain", "dpop"])
    func challengeCostsNoRenewal(binding: String) async throws {
        let device = try SimulatedDevice { if binding == "dpop" { $0.dpop = .required } }
        let service = try await device.registeredService()
        await device.simulator.demandSignIn(AuthenticationRequirement(maxAge: 300), atResourcesUnder: "/v1/resource/payments")
        device.clock.advance(by: 600)
        await device.simulator.resetCounters()
        let transport = Self.transport(device, service)
        #expect(try await transport.send(HTTPRequest(method: .get, url: Self.profile)).status == 200)
        for _ in 0..<3 {
            do {
                _ = try await transport.send(HTTPRequest(method: .get, url: Self.payments))
                Issue.record("the challenge was not reported")
            } catch {
                #expect(error == .stepUpRequired(StepUpChallenge(requirement: AuthenticationRequirement(maxAge: 300),
                                                                 scheme: binding == "dpop" ? "dpop" : "bearer")))
            }
        }
        #expect(await device.simulator.refreshGrantCount == 0)
        // One request per call: no retry.
        #expect(await device.simulator.resourceRequests.filter { $0.path.hasSuffix("payments") }.count == 3)
        #expect(await service.state.letter == "H")
        #expect(try await transport.send(HTTPRequest(method: .get, url: Self.profile)).status == 200)
    }

    @Test("Given an API demanding an acr the sign-in lacks, then stepUpRequired carries the acr_values as required")
    func acrDemand() async throws {
        let device = try SimulatedDevice()
        let service = try await device.registeredService()
        await device.simulator.demandSignIn(AuthenticationRequirement(acrValues: ["urn:regstate:sim:mfa"]),
                                            atResourcesUnder: "/v1/resource/payments")
        await device.simulator.resetCounters()
        do {
            _ = try await Self.transport(device, service).send(HTTPRequest(method: .get, url: Self.payments))
            Issue.record("the challenge was not reported")
        } catch {
            guard case .stepUpRequired(let challenge) = error else { Issue.record("\(error)"); return }
            #expect(challenge.requirement == AuthenticationRequirement(acrValues: ["urn:regstate:sim:mfa"], acrRequired: true))
            #expect(!error.isTransient)
        }
        #expect(await device.simulator.refreshGrantCount == 0)
    }

    @Test("Given a challenge whose values are refused, then the 401 comes back as it came, still with no renewal")
    func refusedChallengeNotRenewed() async throws {
        let device = try SimulatedDevice()
        let service = try await device.registeredService()
        let hostile = HTTPResponse(status: 401, headers: [
            "WWW-Authenticate": "Bearer error=\"insufficient_user_authentication\", max_age=-5"])
        let base = CannedTransport(base: device.simulator.transport, url: Self.payments, answer: hostile)
        await device.simulator.resetCounters()
        let transport = AuthorizedTransport(base: base, service: service,
                                            policy: TokenPolicy(validatingURLs: [URL(string: "https://api.regstate.sim/v1/resource")!]))
        #expect(try await transport.send(HTTPRequest(method: .get, url: Self.payments)).status == 401)
        #expect(await device.simulator.refreshGrantCount == 0)
    }
}

/// A transport that answers `url` with `answer` and passes everything else to `base`.
private struct CannedTransport: HTTPTransport {
    let base: any HTTPTransport
    let url: URL
    let answer: HTTPResponse

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        request.url == url ? answer : try await base.send(request)
    }
}
