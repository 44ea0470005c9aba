import Foundation

/// The one way the public calls ask for a renewal (``RenewalService`` decides whether it runs, joins or is done).
extension RegStateService {
    /// The one way a renewal is asked for: the first caller for a stale token journals
    /// ``MachineEvent/renewalRequested(_:)``, whose effect runs the single flight; later callers join it or find it
    /// done. `nil` forces a renewal; `seen` is the record the caller read `staleAccessToken` in. Returns the renewed
    /// credential (`nil` when none is at hand) or why the renewal failed, when this caller learned it.
    @discardableResult
    func renew(replacing staleAccessToken: String?, because trigger: RenewalTrigger,
               seen: TokenSnapshot? = nil) async -> Result<AccessCredential?, RenewalFailure> {
        // Held after a transient failure (``RenewalHoldPolicy``): the recoverable E at once, nothing sent, nothing
        // journaled. A forced renewal (`nil`) goes on: the grant decides, under the store's lock, whether it cuts short.
        if staleAccessToken != nil, let held = await transientHold(seen: seen) { return .failure(.transient(held)) }
        switch await runner.renewal.admit(replacing: staleAccessToken, seen: seen) {
        case .alreadyRenewed(let credential):
            return .success(credential)
        case .join:
            let outcome = await runner.renewal.renew(replacing: staleAccessToken)
            _ = await feed(outcome.event)
            return outcome.answer
        case .request:
            let input = staleAccessToken.map(SecretInput.staleAccessToken)
            guard let applied = try? await apply(.renewalRequested(trigger), carrying: input) else { return .success(nil) }
            for case .renewalFailed(let failure, _) in applied.events { return .failure(failure) }
            return await runner.renewal.outcome(replacing: staleAccessToken)?.answer ?? .success(nil)
        }
    }

    /// The transient issue to answer with when the access token's renewal is held now (the issue of the failure that
    /// started the hold); `nil` when it is not held. `seen` is the record the caller read.
    private func transientHold(seen: TokenSnapshot?) async -> TransientIssue? {
        let record = if let seen { seen } else { await runner.tokens.snapshot() }
        guard case .held = runner.tokens.holdPolicy.decide(record?.accessTokenBackoff, at: clock.now()) else { return nil }
        return record?.accessTokenBackoffIssue ?? .ssoUnspecifiedIssue
    }
}
