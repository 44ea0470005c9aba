import Foundation
import RegState

/// A clock that moves only when told to; for tests and for the simulator's scripted worlds.
///
/// Its waits run on its own time too: ``sleep(for:)`` returns once ``advance(by:)`` or ``set(_:)`` has moved the
/// clock to the wait's deadline (or when the waiting task is cancelled), never because wall time passed. So a timer
/// the engine sets through the clock seam (the launch budget, the token endpoint's retry delay) expires in a test
/// exactly when the test moves the clock past it, however fast or slow the machine is. A clock that faces a real server
/// in real time (an interop test against a running provider) waits on wall time instead (`waitsOnWallTime`).
public final class ManualClock: RegStateClock {
    /// The time, and the waits that have not ended yet.
    private struct State {
        var now: Date
        var waits: [Int: (deadline: Date, continuation: CheckedContinuation<Void, Never>)] = [:]
        /// Waits cancelled before they were registered: they end as soon as they are.
        var cancelled: Set<Int> = []
        var nextID = 0
    }

    private let state: LockedValue<State>
    private let waitsOnWallTime: Bool
    private let advancesWhileSleeping: Bool

    /// Starts the clock at `start`. With `waitsOnWallTime`, ``sleep(for:)`` waits that long on the wall clock (for a
    /// clock facing a real server in real time); with `advancesWhileSleeping`, every wait the engine makes through the
    /// clock (a device authorization's polling interval, say) moves the clock on by its length and returns at once, so
    /// a test of polling runs without sleeping; by default a wait waits for the test to move the clock.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000), waitsOnWallTime: Bool = false,
                advancesWhileSleeping: Bool = false) {
        state = LockedValue(State(now: start))
        self.waitsOnWallTime = waitsOnWallTime
        self.advancesWhileSleeping = advancesWhileSleeping
    }

    /// The instant the clock was last set to.
    public func now() -> Date { state.withLock { $0.now } }

    /// Moves the clock forward by `seconds`; the waits it passes end.
    public func advance(by seconds: TimeInterval) {
        move { $0.addingTimeInterval(seconds) }
    }

    /// Sets the clock to `date`; the waits it passes end.
    public func set(_ date: Date) {
        move { _ in date }
    }

    /// How many ``sleep(for:)`` calls are waiting for the clock to reach their deadline: a test waits for the engine
    /// to have set its timer before it moves the clock past it.
    public var pendingSleeps: Int { state.withLock { $0.waits.count } }

    /// Returns once the clock has been moved to now + `seconds` (or past it), or when the task is cancelled (with
    /// `waitsOnWallTime`: after `seconds` of wall time; with `advancesWhileSleeping`: at once, the clock moved on).
    public func sleep(for seconds: TimeInterval) async {
        if advancesWhileSleeping {
            if seconds > 0, !Task.isCancelled { advance(by: seconds) }
            await Task.yield()
            return
        }
        guard seconds > 0 else { return }
        if waitsOnWallTime {
            try? await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1_000_000_000))
            return
        }
        let (id, deadline) = state.withLock { state -> (Int, Date) in
            state.nextID += 1
            return (state.nextID, state.now.addingTimeInterval(seconds))
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let endsNow = state.withLock { state -> Bool in
                    if state.cancelled.remove(id) != nil || state.now >= deadline { return true }
                    state.waits[id] = (deadline, continuation)
                    return false
                }
                if endsNow { continuation.resume() }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let wait = state.waits.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return wait.continuation
            }
            waiting?.resume()
        }
    }

    /// Sets the time to `next(now)` and ends the waits whose deadline it reached, earliest first.
    private func move(_ next: (Date) -> Date) {
        let due = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.now = next(state.now)
            let now = state.now
            let due = state.waits.filter { $0.value.deadline <= now }
                .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
            for (id, _) in due { state.waits.removeValue(forKey: id) }
            return due.map(\.value.continuation)
        }
        for continuation in due { continuation.resume() }
    }
}
