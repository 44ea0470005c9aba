import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Authorization of the app's requests, and the credential and renewal ``AuthorizedTransport`` uses.
extension RegStateService {
    /// Authorizes a request the app builds itself: sets `Authorization` to the token the policy names for its URL (as
    /// `DPoP` with a proof when the session is DPoP-bound); an unlisted request is left untouched. It does not retry:
    /// ``AuthorizedTransport`` and `RegStateURLProtocol` renew a rejected token and retry once.
    ///
    /// - Throws: ``RegStateServiceError`` when the listed request cannot get its token
    ///   (``RegStateServiceError/cancelled`` when the caller's task is cancelled while it waits for a renewal).
    public nonisolated func authorize(_ request: inout URLRequest, policy: TokenPolicy) async throws(RegStateServiceError) {
        guard let url = request.url, let carrier = policy.carrier(for: url) else { return }
        let credential = try await credential(for: carrier)
        let fields = try credential.authorizationFields(method: request.httpMethod ?? "GET", url: url, dpop: runner.dpop)
        for (name, value) in fields {
            request.setValue(value, forHTTPHeaderField: name)
        }
    }

    /// The credential `carrier` names for a request the policy lists: the access token with its scheme (DPoP-bound
    /// or bearer), or the backend security token (never DPoP-bound).
    func credential(for carrier: TokenCarrier) async throws(RegStateServiceError) -> AccessCredential {
        switch carrier {
        case .accessToken: try await validAccessToken()
        case .securityToken: try await securityToken()
        }
    }

    /// The server rejected `credential`: the renewed credential to retry with, or `nil` when renewal failed.
    /// - Throws: ``RegStateServiceError/rejectionHeld(until:)`` when `credential` was renewed for a rejection and
    ///   its hold has not passed (nothing is renewed); the security token's renewal failure.
    func renewed(after credential: AccessCredential) async throws(RegStateServiceError) -> AccessCredential? {
        switch credential.carrier {
        case .accessToken:
            // The hold is checked on the record as stored: one that cannot be read now renews nothing, or a token
            // renewed for a rejection a moment ago, in another process, would be renewed again. A renewed token comes
            // with its own binding (a DPoP key, or none), from the renewal itself.
            guard let answer = try await renewAfterRejection(of: credential.token) else { return nil }
            return try await self.credential(for: answer)
        case .securityToken:
            let renewed = try await securityTokenRejected(credential.token)
            return renewed == credential.token ? nil : AccessCredential(token: renewed, carrier: .securityToken)
        }
    }
}
