import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Authorization of the app's requests: ``authorize(_:policy:)`` for a request the app sends itself, and the
/// credential and renewal ``AuthorizedTransport`` and ``RegStateURLProtocol`` use.
extension RegStateService {
    /// Authorizes a request the app builds itself (okta's `authorize(&request)`): sets `Authorization` to the token
    /// the policy names for its URL (as `DPoP` with a `DPoP` proof when the session is DPoP-bound), and leaves an
    /// unlisted request untouched. A listed request while no session is active throws
    /// ``RegStateServiceError/noSession``.
    ///
    /// It does not retry: send the request through ``AuthorizedTransport`` or a session configured with
    /// ``RegStateURLProtocol`` to have a rejection renewed once and the request retried once.
    ///
    /// - Throws: ``RegStateServiceError`` when the listed request cannot get its token
    ///   (``RegStateServiceError/cancelled`` when the caller's task is cancelled while it waits for a renewal).
    public nonisolated func authorize(_ request: inout URLRequest, policy: TokenPolicy) async throws(RegStateServiceError) {
        guard let url = request.url, let carrier = policy.carrier(for: url) else { return }
        let credential = try await credential(for: carrier)
        // A DPoP-bound token goes only as `DPoP`, with a fresh proof for this method and URL (RFC 9449 §7.1).
        let method = request.httpMethod ?? "GET"
        let fields = try credential.authorizationFields(method: method, url: url, dpop: runner.dpop)
        for (name, value) in fields {
            request.setValue(value, forHTTPHeaderField: name)
        }
    }

    /// The credential `carrier` names for a request the policy lists: the access token with its scheme (DPoP-bound
    /// or bearer), or the backend security token (never DPoP-bound).
    func credential(for carrier: TokenCarrier) async throws(RegStateServiceError) -> AccessCredential {
        switch carrier {
        case .accessToken: try await validCredential()
        case .securityToken: try await securityToken()
        }
    }

    /// The server rejected `credential`: the renewed credential to retry with, or `nil` when renewal failed.
    ///
    /// - Throws: ``RegStateServiceError/rejectionHeld(until:)`` when `credential` was renewed for a rejection and
    ///   its hold has not passed (nothing is renewed); the security token's renewal failure.
    func renewed(after credential: AccessCredential) async throws(RegStateServiceError) -> AccessCredential? {
        switch credential.carrier {
        case .accessToken:
            // The hold is checked on the record as stored: a store that cannot be read now (a locked device) renews
            // nothing (a recoverable storage failure), or a token renewed for a rejection a moment ago, in another
            // process, would be renewed again.
            let seen: TokenSnapshot?
            do {
                seen = try await runner.tokens.readSnapshot()
            } catch {
                throw .renewal(.storage(error.errorDescription ?? "unreadable"))
            }
            if let until = await runner.tokens.heldUntil(credential.token, carrier: .accessToken, in: seen?.record) {
                throw .rejectionHeld(until: until)
            }
            // A renewed access token comes with its own binding (a DPoP key, or none), from the renewal itself.
            guard let answer = await renewAfterRejection(of: credential.token, seen: seen) else { return nil }
            return try await self.credential(for: answer)
        case .securityToken:
            let renewed = try await securityTokenRejected(credential.token)
            return renewed == credential.token ? nil : AccessCredential(token: renewed, carrier: .securityToken)
        }
    }
}
