import Foundation
import RegStateTesting
import Testing
@testable import RegState

/// The device grant's polls through a transient failure of each kind RFC 8628 §3.5 leaves to the client (no
/// connection, a 5xx answer, a timeout): polling goes on with backoff, never sooner than the interval, until the
/// provider answers again, or until the code expires, after which nothing polls.
@Suite("Device authorization grant through transient failures")
struct DeviceAuthorizationTransientTests {
    /// A transient failure of the poll, as the network or the provider produces it.
    enum Fault: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case noConnection = "no connection", serverError = "503", timeout = "timeout"
        var testDescription: String { rawValue }
    }

    /// The simulator's transport with every device-code poll recorded at the clock's now, failing with `fault` while
    /// it is on (the poll never reaches the provider).
    final class FaultyPolls: HTTPTransport, @unchecked Sendable {
        // @unchecked: `polls` and `failing` are guarded by `lock`; the rest is immutable and Sendable.
        let base: any HTTPTransport
        let clock: any RegStateClock
        let fault: Fault
        private let lock = NSLock()
        private var polls: [(at: Date, failed: Bool)] = []
        private var failing = true

        init(base: any HTTPTransport, clock: any RegStateClock, fault: Fault) {
            self.base = base
            self.clock = clock
            self.fault = fault
        }

        /// Every poll so far, when it left and whether it failed.
        var recorded: [(at: Date, failed: Bool)] { lock.withLock { polls } }
        /// Ends the fault: later polls reach the provider.
        func recover() { lock.withLock { failing = false } }

        func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
            let body = String(decoding: request.body ?? Data(), as: UTF8.self)
            guard body.contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code") else {
                return try await base.send(request)
            }
            let failed = lock.withLock { () -> Bool in
                polls.append((clock.now(), failing))
                return failing
            }
            guard failed else { return try await base.send(request) }
            switch fault {
            case .noConnection: throw .connectionFailed("connection refused")
            case .timeout: throw .timedOut
            case .serverError:
                return HTTPResponse(status: 503, headers: ["Content-Type": "text/html"], body: Data("<h1>down</h1>".utf8))
            }
        }
    }

    static func gaps(_ polls: [Date]) -> [TimeInterval] {
        zip(polls.dropFirst(), polls).map { $0.timeIntervalSince($1) }
    }

    @Test("Given the user approved and the polls fail for 100 s, then they back off (never sooner than the interval, each wait longer), and the first poll after the recovery yields G", arguments: Fault.allCases)
    func backsOffThenRecovers(_ fault: Fault) async throws {
        let device = try SimulatedDevice(clock: ManualClock(advancesWhileSleeping: true))
        let polls = FaultyPolls(base: device.simulator.transport, clock: device.clock, fault: fault)
        let service = device.launch(transport: polls)
        await service.start()
        let shown = try await service.beginDeviceRegistration()
        try await device.simulator.approveDeviceAuthorization(userCode: shown.userCode, as: "dana@example.com")
        let started = device.clock.now()
        let completion = Task { try await service.completeDeviceRegistration() }
        while device.clock.now().timeIntervalSince(started) < 100 { await Task.yield() }
        polls.recover()
        let profile = try await completion.value
        #expect(profile.email == "dana@example.com")
        let recorded = polls.recorded
        let failed = recorded.filter(\.failed).map(\.at)
        #expect(failed.count >= 3, "\(recorded)")
        let gaps = Self.gaps(failed)
        #expect(gaps.allSatisfy { $0 >= shown.interval }, "never sooner than the interval: \(gaps)")
        #expect(zip(gaps.dropFirst(), gaps).allSatisfy { $0 > $1 }, "each wait longer than the last: \(gaps)")
        #expect(recorded.filter { !$0.failed }.count == 1, "one poll after the recovery: the token answer")
        #expect(await device.simulator.deviceTokenAnswers(userCode: shown.userCode) == 1)
        #expect(await service.state == .awaitingConfirmation(profile))
    }

    @Test("Given the polls fail until the code expires, then F code_expired, no poll at or after the expiry, nothing stored", arguments: Fault.allCases)
    func failsUntilExpiry(_ fault: Fault) async throws {
        let device = try SimulatedDevice(clock: ManualClock(advancesWhileSleeping: true)) { $0.deviceCodeLifetime = 300 }
        let polls = FaultyPolls(base: device.simulator.transport, clock: device.clock, fault: fault)
        let service = device.launch(transport: polls)
        await service.start()
        let shown = try await service.beginDeviceRegistration()
        try await device.simulator.approveDeviceAuthorization(userCode: shown.userCode, as: "dana@example.com")
        await #expect(throws: RegStateServiceError.registration(.codeExpired)) {
            try await service.completeDeviceRegistration()
        }
        let recorded = polls.recorded
        #expect(recorded.count >= 3 && recorded.allSatisfy(\.failed), "\(recorded)")
        #expect(recorded.allSatisfy { $0.at < shown.expiresAt }, "\(recorded)")
        #expect(await device.simulator.deviceTokenAnswers(userCode: shown.userCode) == 0)
        #expect(try device.store.data(forKey: PendingDeviceAuthorization.storeKey) == nil)
        #expect(try device.store.data(forKey: TokenService.credentialsKey) == nil)
        #expect(await service.state == .failed(.registration(.codeExpired)))
    }
}
