import Foundation

/// The authorization code's redemption, one for both code logins (``AuthorizationCodeGrant``, ``StepUpGrant``): the
/// redirect checked against the record's request, the record taken under the store's lock (the same redirect twice,
/// or in two processes, finds nothing the second time), its age and DPoP key checked, and the code exchanged with
/// that key. What each login checks and stores with the tokens is its own.
struct AuthorizationCodeRedemption<Record: CodeGrantRecord>: Sendable {
    let runner: EffectRunner

    /// The stored record, `nil` when none is.
    func stored() async throws(RegistrationFailure) -> Record? {
        try await RegistrationFailure.catching { () async throws(StoreError) in
            try await runner.tokens.pending(Record.self)
        }
    }

    /// Takes the stored record with `id` (whichever, when `nil`) under the store's lock: the one taken, and when none
    /// was, the one stored in its place.
    func take(id: String?) async throws(RegistrationFailure) -> (taken: Record?, stored: Record?) {
        let tokens = runner.tokens
        return try await RegistrationFailure.catching { () async throws(StoreError) in
            try await tokens.withExclusiveAccess { () async throws(StoreError) in
                let taken = try await tokens.removePending(Record.self, id: id)
                return (taken, taken == nil ? (try? await tokens.pending(Record.self)) ?? nil : nil)
            }
        }
    }

    /// Redeems the code `callback` carries for the taken `record`, proven with `key`'s answer: an expired record, or
    /// one whose DPoP key is no longer the one `key` answers, is refused.
    func exchange(_ callback: URL, for record: Record, key: () throws(RegistrationFailure) -> DPoPKey?)
        async throws(RegistrationFailure) -> (response: TokenResponse, key: DPoPKey?)
    {
        if record.isExpired(at: runner.dependencies.clock.now(), lifetime: runner.configuration.pendingLoginLifetime) {
            throw .pendingLoginExpired
        }
        let key = try key()
        if let bound = record.dpopKeyThumbprint, key?.thumbprint != bound { throw .pendingLoginSuperseded }
        let code = try await runner.provider.authorizationCode(from: callback, for: record.request)
        let response = try await RegistrationFailure.catching { () async throws(OIDCError) in
            try await runner.provider.exchangeCode(code, for: record.request, proofKey: key)
        }
        return (response, key)
    }
}
