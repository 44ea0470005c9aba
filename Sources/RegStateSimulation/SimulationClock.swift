import Foundation
import RegState
import RegStateTesting

/// The engine's clock in a run that drives waits: the world's ``ManualClock`` for the time, and every wait the
/// engine makes through the clock seam (the launch budget, the token endpoint's retry) and every stall the network
/// plays held here until the scheduler finds nothing else to run; then the clock jumps to the earliest deadline and
/// that wait ends (``wakeNext()``). Waits end in deadline order, ties in the order they began, so a seed replays.
final class SimulationClock: RegStateClock, @unchecked Sendable {
    // @unchecked: `waits`, `cancelled` and `nextID` are guarded by `lock`; `time` is Sendable.
    private struct Wait {
        var deadline: Date
        var id: Int
        var continuation: CheckedContinuation<Void, Never>
    }

    let time: ManualClock
    private let lock = NSLock()
    private var waits: [Wait] = []
    private var cancelled: Set<Int> = []
    private var nextID = 0

    init(time: ManualClock) { self.time = time }

    func now() -> Date { time.now() }

    /// Returns once the clock has reached now + `seconds` and nothing else could run before, or when cancelled.
    func sleep(for seconds: TimeInterval) async {
        guard seconds > 0 else { return }
        let id = lock.withLock { nextID += 1; return nextID }
        let deadline = time.now().addingTimeInterval(seconds)
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = lock.withLock { () -> Bool in
                    if cancelled.remove(id) != nil { return true }
                    waits.append(Wait(deadline: deadline, id: id, continuation: continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiting = lock.withLock { () -> CheckedContinuation<Void, Never>? in
                guard let index = waits.firstIndex(where: { $0.id == id }) else {
                    cancelled.insert(id)
                    return nil
                }
                return waits.remove(at: index).continuation
            }
            waiting?.resume()
        }
    }

    /// How many waits are pending (the memory check reads it: a wait must not outlive its owner for good).
    var pendingWaits: Int { lock.withLock { waits.count } }

    /// Ends every wait whose deadline the clock has passed (the world's actions move it), earliest first.
    func wakeDue() {
        let now = time.now()
        let due = lock.withLock { () -> [Wait] in
            let due = waits.filter { $0.deadline <= now }.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
            waits.removeAll { $0.deadline <= now }
            return due
        }
        for wait in due { wait.continuation.resume() }
    }

    /// Ends the earliest wait, first moving the clock to its deadline if that is still ahead; `false` when none waits.
    /// The scheduler calls it when no job is ready.
    func wakeNext() -> Bool {
        let next = lock.withLock { () -> Wait? in
            guard let index = waits.indices.min(by: { (waits[$0].deadline, waits[$0].id) < (waits[$1].deadline, waits[$1].id) })
            else { return nil }
            return waits.remove(at: index)
        }
        guard let next else { return false }
        let now = time.now()
        if next.deadline > now { time.advance(by: next.deadline.timeIntervalSince(now)) }
        next.continuation.resume()
        return true
    }
}
