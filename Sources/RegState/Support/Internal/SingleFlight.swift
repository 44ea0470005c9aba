import Foundation

/// One flight of shared work: the first caller starts it, every caller that arrives while it runs gets the same
/// value, and the first caller after it landed starts a new one. The one single flight of the refresh-token grant
/// (``RenewalService``) and of the access-token answer (``RegStateService/validAccessToken()``).
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
}
