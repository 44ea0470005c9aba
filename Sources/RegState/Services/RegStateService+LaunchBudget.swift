import Foundation

extension RegStateService {
    /// The launch renewal, given at most ``RegStateConfiguration/launchBudget`` seconds: its result when it lands in
    /// time; otherwise the launch settles offline (recoverable E, then B) and the renewal goes on, one grant either
    /// way. Returns what the launch applied, and the task that applies a late result when it lands (C, or its E),
    /// which the shell owns (cancelled with it). `inspected` is the expired session the launch read, which the launch
    /// goes on offline with when the store cannot be read as it settles.
    func renewWithinLaunchBudget(_ kind: TokenCarrier, replacing staleAccessToken: String?, inspected: StoredSession?)
        async -> (applied: Applied?, late: Task<Void, Never>?)
    {
        let budget = runner.configuration.launchBudget
        // The launch's renewal is the flight callers join meanwhile; the launch settles it (``settle(_:)``).
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
        // cannot be read now (a locked device), the session the launch inspected: read as "none", the launch
        // settled in E with no session, and the renewal's tokens, landing later, were stored but never applied.
        let stored: StoredSession?
        do {
            stored = try await runner.tokens.readSnapshot()?.session
        } catch {
            stored = inspected
        }
        let applied = await feed(.renewalFailed(.transient(.noInternet), stored: stored))
        // Cancelling the late task cancels the renewal too.
        let late = Task {
            let landing = await withTaskCancellationHandler { await flight.value } onCancel: { flight.cancel() }
            _ = await self.settle(landing)
        }
        return (applied, late)
    }
}
