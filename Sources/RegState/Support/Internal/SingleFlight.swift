import Foundation

/// One flight of shared work: the first caller starts it, every caller that arrives while it runs gets the same
/// value, and the first caller after it landed starts a new one: the access-token answer
/// (``RegStateService/validAccessToken()``), whose waiters resume side by side off the actor (the renewals' own flights
/// are the ``FlightMachine``'s); its timed wait serves the launch budget too.
///
/// Callers get the flight's task and await its value wherever they are, so waiters on a nonisolated path resume side
/// by side instead of queueing for an actor. The flight is forgotten inside its own task, as soon as the work has
/// returned, so no caller can join a flight whose value is already settled.
final class SingleFlight<Value: Sendable>: Sendable {
    private struct Running {
        var generation = 0
        var task: Task<Value, Never>?
    }

    private let running = LockedValue(Running())

    init() {}

    /// Whether a flight is running (not yet landed).
    var isRunning: Bool { running.withLock { $0.task != nil } }

    /// The running flight, or a new one running `work`; `started` tells whether this call started it.
    func join(or work: @escaping @Sendable () async -> Value) -> (task: Task<Value, Never>, started: Bool) {
        running.withLock { state in
            if let task = state.task { return (task, false) }
            return (launch(work, in: &state), true)
        }
    }

    private func launch(_ work: @escaping @Sendable () async -> Value, in state: inout Running) -> Task<Value, Never> {
        state.generation += 1
        let generation = state.generation
        let task = Task {
            let value = await work()
            self.land(generation)
            return value
        }
        state.task = task
        return task
    }

    private func land(_ generation: Int) {
        running.withLock { state in
            if state.generation == generation { state.task = nil }
        }
    }

    /// `task`'s value if it lands within `seconds` of `clock`'s time, else `nil`; the task runs on either way.
    static func value(of task: Task<Value, Never>, within seconds: TimeInterval, on clock: any RegStateClock) async
        -> Value?
    {
        let first = OnceValue<Value?>()
        let timer = Task {
            await clock.sleep(for: max(0, seconds))
            first.resolve(nil)
        }
        Task {
            first.resolve(await task.value)
            timer.cancel()
        }
        return await first.value
    }
}
