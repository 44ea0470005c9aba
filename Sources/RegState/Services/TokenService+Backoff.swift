import Foundation

/// The transient backoff (``RenewalHoldPolicy``) in the credentials record, shared by every process and launch.
extension TokenService {
    /// A renewal of `carrier`'s token failed transiently now, for `issue` (the server asked to wait `retryAfter`):
    /// stores the next hold of the chain and the issue held calls answer with, under the store's lock (taken here
    /// unless `underLock`). Nothing when the policy holds nothing or no session's record is stored.
    func recordTransientFailure(_ carrier: TokenCarrier, issue: TransientIssue, retryAfter: TimeInterval?,
                                underLock: Bool = false) async throws(StoreError) {
        guard underLock else {
            return try await withExclusiveAccess { () async throws(StoreError) in
                try await recordTransientFailure(carrier, issue: issue, retryAfter: retryAfter, underLock: true)
            }
        }
        guard holdPolicy.holdsTransientFailures, var credentials = try readRecord() else { return }
        let (backoff, backoffIssue) = carrier == .accessToken
            ? (\StoredCredentials.accessTokenBackoff, \StoredCredentials.accessTokenBackoffIssue)
            : (\StoredCredentials.securityTokenBackoff, \StoredCredentials.securityTokenBackoffIssue)
        credentials[keyPath: backoff] = holdPolicy.afterTransientFailure(
            credentials[keyPath: backoff], retryAfter: retryAfter, at: clock.now(),
            random: RenewalHoldPolicy.randomFraction(from: crypto))
        credentials[keyPath: backoffIssue] = issue
        try save(credentials)
    }
}
