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
    /// - Parameter seen: the record the caller just read and found `staleAccessToken` in, so it is not read again.
    /// - Returns: the renewed credential (`nil` when none is at hand: nothing was done, or its DPoP key is not the
    ///   stored one), or why the renewal failed, when this caller learned it.
    @discardableResult
    func renew(replacing staleAccessToken: String?, because trigger: RenewalTrigger,
               seen: TokenSnapshot? = nil) async -> Result<AccessCredential?, RenewalFailure> {
        switch await renewal.admit(replacing: staleAccessToken, seen: seen) {
        case .alreadyRenewed(let credential):
            return .success(credential)
        case .join:
            let outcome = await renewal.renew(replacing: staleAccessToken)
            _ = await feed(outcome.event)
            return outcome.answer
        case .request:
            let input = staleAccessToken.map(SecretInput.staleAccessToken)
            guard let applied = try? await apply(.renewalRequested(trigger), carrying: input) else { return .success(nil) }
            for case .renewalFailed(let failure, _) in applied { return .failure(failure) }
            return await renewal.outcome(replacing: staleAccessToken)?.answer ?? .success(nil)
        }
    }
}
