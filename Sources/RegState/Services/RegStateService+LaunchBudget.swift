import Foundation

extension RegStateService {
    /// The launch renewal, given at most ``RegStateConfiguration/launchBudget`` seconds: its result when it lands in
    /// time; otherwise the launch settles offline (recoverable E, then B) and the renewal goes on, one grant either
    /// way. Returns what the launch applied, and the task that applies a late result when it lands (C, or its E),
    /// which the shell owns (cancelled with it).
    func renewWithinLaunchBudget(replacing staleAccessToken: String?) async
        -> (applied: Applied?, late: Task<Void, Never>?)
    {
        let renewal = runner.renewal
        let budget = runner.configuration.launchBudget
        // An infinite budget waits for the renewal itself: no timer.
        guard budget.isFinite else {
            return (await feed(await renewal.renew(replacing: staleAccessToken).effectEvent), nil)
        }
        let flight = Task { await renewal.renew(replacing: staleAccessToken) }
        if let outcome = await SingleFlight.value(of: flight, within: budget, on: clock) {
            return (await feed(outcome.effectEvent), nil)
        }
        logger.log(.info, "launch: the provider has not answered within \(budget) s; settling offline")
        let applied = await feed(.renewalFailed(.transient(.noInternet), stored: await runner.tokens.storedSession()))
        // Cancelling the late task cancels the renewal too.
        let late = Task {
            let outcome = await withTaskCancellationHandler { await flight.value } onCancel: { flight.cancel() }
            _ = await self.feed(outcome.effectEvent)
        }
        return (applied, late)
    }
}
