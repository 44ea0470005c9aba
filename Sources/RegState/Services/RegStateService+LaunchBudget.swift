import Foundation

extension RegStateService {
    /// The launch renewal, given at most ``RegStateConfiguration/launchBudget`` seconds: its result when it lands in
    /// time; otherwise the launch settles offline (recoverable E, then B) and the renewal goes on. Returns what the
    /// launch applied, and the task that applies a late result (C, or its E). `inspected`: the expired session the
    /// launch read, which it goes on offline with when the store cannot be read as it settles.
    func renewWithinLaunchBudget(_ kind: TokenCarrier, replacing staleAccessToken: String?, inspected: StoredSession?)
        async -> (applied: Applied?, late: Task<Void, Never>?)
    {
        let budget = runner.configuration.launchBudget
        let flight = startRenewal(kind, replacing: staleAccessToken, settles: false)
        // An infinite budget waits for the renewal itself: no timer.
        guard budget.isFinite else {
            return (await settle(await flight.value), nil)
        }
        if let landing = await SingleFlight.value(of: flight, within: budget, on: clock) {
            return (await settle(landing), nil)
        }
        logger.log(.info, "launch: the provider has not answered within \(budget) s; settling offline")
        // The record as it is now (another process may have renewed or ended the session meanwhile); when the store
        // cannot be read now, the session the launch inspected (read as "none", a late renewal would never apply).
        let stored: StoredSession?
        do {
            stored = try await runner.tokens.readSnapshot()?.session
        } catch {
            stored = inspected
        }
        let applied = await feed(.renewalFailed(.transient(.noInternet), stored: stored))
        let late = Task {
            let landing = await withTaskCancellationHandler { await flight.value } onCancel: { flight.cancel() }
            _ = await self.settle(landing)
        }
        return (applied, late)
    }
}
