import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// A wrong device clock never blocks registration: the engine estimates the offset to the provider from its `Date`
/// headers and checks ID token time claims on the provider's clock (issue 20).
@Suite("Device clock off from the provider's")
struct ClockSkewTests {
    /// Seconds the device clock is off: positive is ahead of the provider, negative behind.
    static let skews: [TimeInterval] = [-120, 120, -600, 600, -86_400, 86_400]

    /// A service on `device`'s world whose own clock is `skew` seconds off the simulator's.
    static func skewedLaunch(_ device: SimulatedDevice, skew: TimeInterval) -> (RegStateService, ManualClock) {
        let deviceClock = ManualClock(start: device.clock.now().addingTimeInterval(skew))
        let service = RegStateService(configuration: device.configuration, dependencies: RegStateDependencies(
            store: device.store, journal: device.journal, transport: device.simulator.transport, clock: deviceClock,
            logger: device.logger))
        return (service, deviceClock)
    }

    @Test("social registration, token use and renewal work with the device clock off", arguments: skews)
    func socialRegistrationWithSkew(skew: TimeInterval) async throws {
        let device = try SimulatedDevice()
        let (service, deviceClock) = Self.skewedLaunch(device, skew: skew)
        #expect(await service.start() == .registrationRequired)
        try await device.signIn(service)
        let session = try await service.confirmRegistration()
        #expect(session.activation == .registered)
        _ = try await service.validAccessToken().token
        // Expiry is tracked from receipt on the device clock: two hours later (both clocks) the session renews, and
        // the refreshed ID token is also checked on the provider's clock.
        device.clock.advance(by: 7200)
        deviceClock.advance(by: 7200)
        #expect(await service.renewSession().letter == "C")
        _ = try await service.validAccessToken().token
        let warnings = device.logger.messages(atLeast: .warning)
        let direction = skew > 0 ? "ahead of" : "behind"
        #expect(warnings.contains("The device clock is \(Int(abs(skew))) s \(direction) the provider's; time claims "
            + "are checked on the provider's clock."))
    }

    @Test("without an offset the same tokens are refused: the estimate is what makes the skewed registration work")
    func validatorRefusesWithoutOffset() async throws {
        let device = try SimulatedDevice()
        let client = OIDCClient(configuration: device.configuration.oidc, transport: device.simulator.transport,
                                clock: ManualClock(start: device.clock.now().addingTimeInterval(-600)))
        let request = try await client.makeAuthorizationRequest()
        let callback = try await device.simulator.authorize(request.url, as: "alice@example.com")
        let code = try #require(URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "code" }?.value)
        let tokens = try await client.exchangeCode(code, for: request)
        let idToken = try #require(tokens.idToken)
        #expect(client.clockEstimate.offset == 600)
        _ = try await client.validateIDToken(idToken, expectedNonce: request.nonce)
        let naive = IDTokenValidator(issuer: device.configuration.oidc.issuerIdentifier,
                                     clientID: device.configuration.oidc.clientID)
        let keys = try await client.keySet(forceRefresh: false)
        #expect(throws: IDTokenError.issuedInFuture) {
            try naive.validate(idToken, keySet: keys, expectedNonce: request.nonce,
                               now: device.clock.now().addingTimeInterval(-600))
        }
    }

    @Test("a small difference is not applied and not reported; the Date header round-trips")
    func negligibleOffset() throws {
        let estimate = ProviderClockEstimate()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let header = ProviderClockEstimate.httpDate(now)
        #expect(header == "Fri, 15 Jan 2027 08:00:00 GMT")
        #expect(ProviderClockEstimate.parseHTTPDate(header) == now)
        #expect(estimate.observe(HTTPResponse(status: 200, headers: ["Date": header]), at: now.addingTimeInterval(-2))
            == nil)
        #expect(estimate.offset == 0)
        #expect(estimate.source != nil)
        #expect(estimate.observe(HTTPResponse(status: 200, headers: ["date": "yesterday"]), at: now) == nil)
        #expect(estimate.observe(HTTPResponse(status: 200, headers: ["Date": header]), at: now.addingTimeInterval(-60))
            == 60)
        #expect(estimate.providerNow(deviceNow: now) == now.addingTimeInterval(60))
    }
}
