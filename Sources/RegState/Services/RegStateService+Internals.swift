import Foundation

/// What the public calls in the other extensions share: one read of the store, the configuration's budget, and the
/// one way a renewal is asked for.
extension RegStateService {
    /// The stored credentials now, read once.
    func tokenSnapshot() async -> TokenSnapshot? {
        await runner.tokens.snapshot()
    }

    /// The launch budget of the configuration, in seconds.
    var launchBudget: TimeInterval { runner.configuration.launchBudget }

    /// The stored session summary now (no token), read once.
    func storedSession() async -> StoredSession? { await runner.tokens.storedSession() }

    /// The keys in the secure store now.
    func storedKeys() -> [String] { runner.storedKeys() }

    /// The installation's DPoP key, nonces and signer.
    nonisolated var dpop: DPoPContext { runner.dpop }

    /// The one way a renewal is asked for. ``RenewalService`` decides: the first caller for a stale token journals
    /// ``MachineEvent/renewalRequested(_:)``, whose effect runs (or joins) the single flight; later callers for the
    /// same token join it, or find that someone already renewed it. `nil` forces a renewal.
    ///
    /// - Returns: why the renewal failed, when this caller learned it; `nil` when it succeeded or nothing was done.
    @discardableResult
    func renew(replacing staleAccessToken: String?, because trigger: RenewalTrigger) async -> RenewalFailure? {
        switch await renewal.admit(replacing: staleAccessToken) {
        case .alreadyRenewed:
            return nil
        case .join:
            let outcome = await renewal.renew(replacing: staleAccessToken)
            _ = await feed(outcome.event)
            return outcome.failure
        case .request:
            let input = staleAccessToken.map(SecretInput.staleAccessToken)
            guard let applied = try? await apply(.renewalRequested(trigger), carrying: input) else { return nil }
            for case .renewalFailed(let failure, _) in applied { return failure }
            return nil
        }
    }
}
