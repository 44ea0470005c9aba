import Foundation
import RegState

/// The transient backoff of ongoing access: the same policy (`RenewalHoldPolicy`: 1 s × 1.6 per failure up to 300 s,
/// ±20 %, the provider's `Retry-After` honoured up to an hour) and the same kind of hold as the access token's and the
/// backend security token's, kept in the ``OngoingAccessTokenStore``'s store so every process sharing it and every
/// later launch obey it (in the service alone when no token store is configured).
///
/// Every call that would send something to the provider asks first: while a hold stands it fails at once with
/// ``OngoingAccessError/backingOff(until:)`` (transient), sending nothing. A call that fails transiently (no
/// connection, a 5xx, a 429, the provider's key set out of reach) stores the next hold of the chain; a call the
/// provider answers removes it. Consent is the user's own action: it may cut a hold short, once per backoff step.
extension OngoingAccessService {
    /// Whether a call to the provider may go now; `userAction`: the user asked for it (consent). Returns the hold it
    /// found (a call that then succeeds removes it).
    ///
    /// - Throws: ``OngoingAccessError/backingOff(until:)`` while a hold stands.
    @discardableResult
    func admitProviderCall(userAction: Bool) throws(OngoingAccessError) -> RejectionHold? {
        let hold = storedBackoff()
        let now = dependencies.clock.now()
        switch holdPolicy.decide(hold, at: now, cutShort: userAction, lastCut: lastBackoffCut) {
        case .held(let until):
            throw .backingOff(until: until)
        case .cutShort:
            lastBackoffCut = now
        case .attempt:
            break
        }
        return hold
    }

    /// `error` ended a call to the provider: a transient one stores the next hold (with the provider's `Retry-After`).
    func noteProviderFailure(_ error: OngoingAccessError) {
        switch error {
        case .backingOff, .authorizationInProgress: return
        case let other where !other.isTransient: return
        default: break
        }
        var retryAfter: TimeInterval?
        if case .rateLimited(let seconds?) = error { retryAfter = TimeInterval(seconds) }
        let next = holdPolicy.afterTransientFailure(storedBackoff(), retryAfter: retryAfter,
                                                    at: dependencies.clock.now(),
                                                    random: RenewalHoldPolicy.randomFraction(from: dependencies.crypto))
        setStoredBackoff(next)
    }

    /// The provider answered: the chain starts again at the next failure (the stored hold is removed).
    func noteProviderAnswered() {
        noteProviderAnswered(after: storedBackoff())
    }

    /// The provider answered a call admitted with the hold `seen` (read then, so a data call's success costs no
    /// second read of the store): a hold is removed.
    func noteProviderAnswered(after seen: RejectionHold?) {
        if seen != nil { setStoredBackoff(nil) }
    }

    private func storedBackoff() -> RejectionHold? {
        guard let store = dependencies.tokenStore else { return backoffInMemory }
        return store.backoff()
    }

    private func setStoredBackoff(_ hold: RejectionHold?) {
        guard let store = dependencies.tokenStore else {
            backoffInMemory = hold
            return
        }
        // The hold is a courtesy to the provider: a store that cannot take it now leaves the next call free.
        try? store.setBackoff(hold)
    }
}
