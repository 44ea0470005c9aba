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
}
