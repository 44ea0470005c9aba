import Foundation

extension RegStateService {
    /// The launch renewal, given at most ``RegStateConfiguration/launchBudget`` seconds: its result when it lands in
    /// time; otherwise the launch settles offline (the token-lifecycle rules: recoverable E, then B) and the renewal goes on, its
    /// result applied when it lands (C on success). One grant either way. `staleAccessToken` is the expired token the
    /// launch found, so a process that finds it already replaced by another uses the stored result and sends nothing.
    ///
    /// - Returns: what the launch applied, and the task that applies the result of a renewal that outlived the
    ///   budget when it lands, which the shell owns (cancelled with it).
    func renewWithinLaunchBudget(replacing staleAccessToken: String?) async
        -> (applied: Applied?, late: Task<Void, Never>?)
    {
        let renewal = runner.renewal
        // An infinite budget waits for the renewal itself: no timer.
        guard launchBudget.isFinite else {
            return (await feed(await renewal.renew(replacing: staleAccessToken).effectEvent), nil)
        }
        let flight = Task { await renewal.renew(replacing: staleAccessToken) }
        if let outcome = await SingleFlight.value(of: flight, within: launchBudget, on: clock) {
            return (await feed(outcome.effectEvent), nil)
        }
        logger.log(.info, "launch: the provider has not answered within \(launchBudget) s; settling offline")
        let stored = await storedSession()
        let applied = await feed(.renewalFailed(.transient(.noInternet), stored: stored))
        // The late result is applied when it lands (C, or its E); cancelling this task cancels the renewal too.
        let late = Task {
            let outcome = await withTaskCancellationHandler { await flight.value } onCancel: { flight.cancel() }
            _ = await self.feed(outcome.effectEvent)
        }
        return (applied, late)
    }
}
