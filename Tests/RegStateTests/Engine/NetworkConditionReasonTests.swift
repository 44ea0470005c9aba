import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// Issue 43, C: one network condition has one reason code wherever it is met. A dropped connection or a captive
/// portal was E `transient_no_internet` at renewal but F `provider_unreachable` at the code exchange, so an app that
/// says "check your Wi-Fi" said it for one of the two.
@Suite("One network condition, one reason code")
struct NetworkConditionReasonTests {
    /// A condition the simulated network can be put in.
    enum Condition: String, CaseIterable, Sendable {
        case offline, captivePortal, providerDown

        /// The reason code the condition has everywhere.
        var code: String { self == .providerDown ? "transient_provider_issue" : "transient_no_internet" }

        func apply(to simulator: Simulator, _ on: Bool) async {
            switch self {
            case .offline: await simulator.setOffline(on)
            case .captivePortal: await simulator.setBehindCaptivePortal(on)
            case .providerDown: await simulator.setProviderDown(on)
            }
        }
    }

    /// The reason code of the first error event `service` emits while `body` runs.
    static func errorCode(of service: RegStateService, during body: () async -> Void) async -> String? {
        let events = await service.events()
        await body()
        var iterator = events.makeAsyncIterator()
        for _ in 0..<10 {
            guard let event = await iterator.next() else { return nil }
            if case .error(let error) = event { return error.reasonCode }
        }
        return nil
    }

    @Test("Given a network condition, the code exchange's F and the renewal's E carry the same reason code",
          arguments: Condition.allCases)
    func sameCodeAtExchangeAndRenewal(_ condition: Condition) async throws {
        // At the code exchange: the user signed in at the provider, then the network went.
        let device = try SimulatedDevice()
        let service = device.launch()
        _ = await service.start()
        let redirect = try await device.simulator.authorize(try await service.beginSocialRegistration(), as: "alice@example.com")
        await condition.apply(to: device.simulator, true)
        var exchange: RegistrationFailure?
        do {
            _ = try await service.completeSocialRegistration(callback: redirect)
        } catch {
            if case .registration(let failure) = error { exchange = failure }
        }
        #expect(exchange?.reasonCode == condition.code, "F at the exchange: \(String(describing: exchange))")

        // At renewal: a registered session whose token expired, the same condition.
        await condition.apply(to: device.simulator, false)
        let registered = device.launch()
        _ = await registered.start()
        let again = try await device.simulator.authorize(try await registered.beginSocialRegistration(), as: "alice@example.com")
        _ = try await registered.completeSocialRegistration(callback: again)
        try await registered.confirmRegistration()
        device.clock.advance(by: 7_200)
        await condition.apply(to: device.simulator, true)
        let relaunched = device.launch()
        let renewal = await Self.errorCode(of: relaunched) { _ = await relaunched.start() }
        #expect(renewal == condition.code, "E at renewal: \(String(describing: renewal))")
        #expect(exchange?.reasonCode == renewal)
    }
}
