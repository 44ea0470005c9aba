import Foundation

/// The one way the public calls ask for a renewal (``RenewalService`` decides whether it runs, joins or is done).
extension RegStateService {
    /// The one way a renewal is asked for. ``RenewalService`` decides: the first caller for a stale token journals
    /// ``MachineEvent/renewalRequested(_:)``, whose effect runs (or joins) the single flight; later callers for the
    /// same token join it, or find that someone already renewed it. `nil` forces a renewal; `seen` is the record the
    /// caller just read `staleAccessToken` in, so it is not read again.
    ///
    /// - Returns: the renewed credential (`nil` when none is at hand: nothing was done, or its DPoP key is not the
    ///   stored one), or why the renewal failed, when this caller learned it.
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
