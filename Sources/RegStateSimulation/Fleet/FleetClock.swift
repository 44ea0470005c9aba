import Foundation
import RegState

/// The fleet's virtual time, in seconds since the run began: moved only by the driver, between calls (the run is one
/// task on the deterministic scheduler, so nothing reads it while it moves).
final class FleetTime: @unchecked Sendable {
    // @unchecked: written by the driver only while no engine call runs (one task drives the run); read by the engines
    // and the provider during a call.
    var seconds: TimeInterval = 0
    /// The instant virtual second 0 stands for.
    static let epoch = Date(timeIntervalSince1970: 1_800_000_000)
}

/// One install's clock: the fleet's time plus the install's own offset (clock jitter). The engine's waits (the launch
/// budget, the unexplained-answer retry) end at once: a fleet run measures the provider, not those waits.
struct FleetClock: RegStateClock {
    let time: FleetTime
    let offset: TimeInterval

    func now() -> Date { FleetTime.epoch.addingTimeInterval(time.seconds + offset) }

    func sleep(for seconds: TimeInterval) async {}
}
