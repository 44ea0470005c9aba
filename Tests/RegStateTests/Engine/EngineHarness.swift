import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// One simulated world (provider + backend on a manual clock) and the device-side storage that survives relaunches:
/// the ``SimulatedDevice`` the `RegStateTesting` product ships.
typealias EngineHarness = SimulatedDevice

extension SimulatedDevice {
    /// The stored refresh token, read the way the engine reads it.
    func storedRefreshToken() async -> String? {
        await TokenService(store: store, clock: clock).refreshToken()
    }
}

/// Pulls lettered events off one subscription in order, with a deadline so a missing event fails the test instead of
/// hanging the run.
struct EventTape {
    /// How long to wait for an event that has not arrived yet: a liveness bound, not a timing, and generous because
    /// a sanitizer build on a loaded 2-core machine can leave the pump without a thread for seconds.
    static let deadline: Duration = .seconds(60)

    /// Reads the subscription on its own task into `received`; stops reading when the tape is dropped.
    private final class Pump: Sendable {
        let received = LockedValue<[RegStateEvent]>([])
        let task: Task<Void, Never>

        init(_ stream: AsyncStream<RegStateEvent>) {
            let received = self.received
            task = Task {
                for await event in stream { received.withLock { $0.append(event) } }
            }
        }

        deinit { task.cancel() }
    }

    private let pump: Pump
    private var consumed = 0

    init(_ service: RegStateService) async {
        pump = Pump(await service.events())
    }

    /// The next `count` events' titles ("Active B", "Error E", ...); fewer, and a recorded issue, when they do not all
    /// arrive within ``deadline``.
    mutating func next(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async -> [String] {
        let events = await take(count, sourceLocation: sourceLocation)
        return events.map(\.title)
    }

    /// The next event, or `nil` (and a recorded issue) when none arrives within ``deadline``.
    mutating func nextEvent(sourceLocation: SourceLocation = #_sourceLocation) async -> RegStateEvent? {
        await take(1, sourceLocation: sourceLocation).first
    }

    private mutating func take(_ count: Int, sourceLocation: SourceLocation) async -> [RegStateEvent] {
        let wanted = consumed + count
        let until = ContinuousClock.now + Self.deadline
        while pump.received.withLock({ $0.count }) < wanted, ContinuousClock.now < until {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let all = pump.received.withLock { $0 }
        let taken = Array(all[consumed..<min(wanted, all.count)])
        consumed += taken.count
        if taken.count < count {
            Issue.record("only \(taken.count) of \(count) events arrived within \(Self.deadline)", sourceLocation: sourceLocation)
        }
        return taken
    }
}
