import Foundation

extension RegStateService {
    /// Whether the stored session's tokens are bound to the installation's DPoP key, with the key's RFC 7638
    /// thumbprint (never the key), for `status`.
    public func tokenBinding() async -> TokenBinding {
        guard let snapshot = await tokenSnapshot(), snapshot.session != nil else { return .none }
        guard snapshot.isDPoPBound else { return .bearer }
        do {
            return .dpop(thumbprint: try dpop.boundKey().thumbprint)
        } catch {
            return .dpopKeyUnavailable(reason: error.errorDescription ?? "unreadable")
        }
    }

    /// A usable access token for the host's requests and, when it is DPoP-bound, the key its proofs are signed with.
    ///
    /// - Throws: as ``validAccessToken()``; ``RegStateError/renewal(_:)`` with ``RenewalFailure/dpopKeyUnavailable(reason:)``
    ///   when the token is bound and its key cannot be read (the session has then ended: **E** final, **D**).
    func validAuthorization() async throws -> (token: String, key: DPoPKey?) {
        let token = try await validAccessToken()
        // The token type comes from the same record as the token: a renewal landing in between hands out the new
        // token with its own type, so a bound token is never sent as Bearer.
        guard let snapshot = await tokenSnapshot() else { throw AccessTokenError.noSession }
        let current = snapshot.accessToken == token ? token : snapshot.usableAccessToken
        guard let current else { throw AccessTokenError.noSession }
        guard snapshot.isDPoPBound else { return (current, nil) }
        do {
            return (current, try dpop.boundKey())
        } catch {
            // Bound tokens are useless without their key: the session ends the way a renewal finds it (the final
            // `dpopKeyUnavailable`, storage cleared, D) instead of failing every request while it looks active.
            let failure = await renew(replacing: current, because: .host)
            throw RegStateError.renewal(failure ?? .dpopKeyUnavailable(reason: error.errorDescription ?? "unreadable"))
        }
    }
}
