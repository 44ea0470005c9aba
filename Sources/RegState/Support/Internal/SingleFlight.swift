import Foundation

/// One flight of shared work (the access-token answer, ``RegStateService/validAccessToken()``): callers that arrive
/// while it runs get its value; it is forgotten inside its own task, so none joins a settled flight.
/// Why callers get the task: docs/Internals-Toolbox.md.
final class SingleFlight<Value: Sendable>: Sendable {
    private struct Running {
        var generation = 0
        var task: Task<Value, Never>?
    }

    private let running = LockedValue(Running())

    /// Whether a flight is running (not yet landed).
    var isRunning: Bool { running.withLock { $0.task != nil } }

    /// The running flight, or a new one running `work`; `started` tells whether this call started it.
    func join(or work: @escaping @Sendable () async -> Value) -> (task: Task<Value, Never>, started: Bool) {
        running.withLock { state in
            if let task = state.task { return (task, false) }
            state.generation += 1
            let generation = state.generation
            let task = Task {
                let value = await work()
                self.land(generation)
                return value
            }
            state.task = task
            return (task, true)
        }
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
