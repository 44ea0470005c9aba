import Foundation

/// Everything the engine's DPoP steps share (mode, key store, nonces, a signer with its key loaded once), so token
/// and resource requests sign with the same key and echo the same nonces; nothing here is logged or journaled.
package final class DPoPContext: Sendable {
    package let mode: DPoPMode
    /// Where the installation's key lives.
    package let keys: DPoPKeyStore
    /// Where a registration in progress keeps its key until its tokens are stored.
    package let registrationKeys: DPoPKeyStore
    /// The latest `DPoP-Nonce` per origin (authorization and resource servers alike).
    package let nonces = DPoPNonceCache()
    private let crypto: any CryptoProvider
    private let clock: any RegStateClock
    /// The offset to the provider's clock: proofs are dated on the server's clock (`iat` is checked against it, RFC
    /// 9449 §4.3), so a device whose clock is off still makes proofs the server accepts.
    private let clockEstimate: ProviderClockEstimate
    /// The signer of the last key used, kept so its key stays loaded (a proof costs one signature).
    private let signers = LockedValue<DPoPProofSigner?>(nil)
    /// Test seam: every proof made through this context is defective this way.
    package let defect = LockedValue<(any DPoPProofTampering)?>(nil)

    package init(mode: DPoPMode, store: any SecureStore, crypto: any CryptoProvider, clock: any RegStateClock,
                 clockEstimate: ProviderClockEstimate = ProviderClockEstimate()) {
        self.clockEstimate = clockEstimate
        self.mode = mode
        keys = DPoPKeyStore(store: store, crypto: crypto)
        registrationKeys = DPoPKeyStore(store: store, crypto: crypto, recordKey: DPoPKeyStore.registrationRecordKey)
        self.crypto = crypto
        self.clock = clock
    }

    /// A fresh key for a new registration when DPoP is on and offered (`nil` otherwise), kept apart until
    /// ``promote(_:)``: the session on disk, which another process may use, keeps its key until then.
    /// - Throws: ``DPoPError/notOffered`` under ``DPoPMode/required`` without ES256 proofs; key and store errors.
    package func keyForNewRegistration(offered: Bool) throws(DPoPError) -> DPoPKey? {
        nonces.removeAll()
        guard mode != .off, offered else {
            try registrationKeys.remove()
            if mode == .required { throw .notOffered }
            return nil
        }
        return try registrationKeys.replace()
    }

    /// The key made when the registration in progress started, when DPoP is on (`nil`: no proofs).
    package func registrationKey() throws(DPoPError) -> DPoPKey? {
        guard mode != .off else { return nil }
        let key = try registrationKeys.load()
        if key == nil, mode == .required { throw .keyRecordUnreadable(reason: "no key was made for this registration") }
        return key
    }

    /// The registration's tokens are about to be stored: `key`, the attempt's own (never re-read from the registration
    /// record, which another process may have replaced), becomes the session's and is returned. Under the store's lock.
    package func promote(_ key: DPoPKey?) throws(DPoPError) -> DPoPKey? {
        signers.withLock { $0 = nil }
        guard let key else {
            try keys.remove()
            return nil
        }
        try keys.save(key)
        if (try? registrationKeys.load())?.thumbprint == key.thumbprint { try registrationKeys.remove() }
        return key
    }

    /// The key that bound the stored tokens; ``DPoPError/keyRecordUnreadable(reason:)`` when it is missing or torn.
    package func boundKey() throws(DPoPError) -> DPoPKey {
        guard let key = try keys.load() else { throw .keyRecordUnreadable(reason: "the key record is missing") }
        return key
    }

    /// The key that bound tokens whose record names `thumbprint` (`nil` in older records: the stored key); `nil` when
    /// another process's registration replaced it between the two reads (read both again under the store's lock).
    package func boundKey(matching thumbprint: String?) throws(DPoPError) -> DPoPKey? {
        let key = try boundKey()
        guard let thumbprint, key.thumbprint != thumbprint else { return key }
        return nil
    }

    /// A session ended: the nonces and the signer go, and the session's key when `removingKey` (the stored session was
    /// this process's; a registration in progress is left alone). Call under the store's lock.
    package func forgetSession(removingKey: Bool) {
        nonces.removeAll()
        signers.withLock { $0 = nil }
        if removingKey { try? keys.remove() }
    }

    /// A fresh proof for one request, with the latest nonce of `url`'s origin.
    package func proof(key: DPoPKey, method: String, url: URL, accessToken: String? = nil) throws(DPoPError) -> String {
        var signer = signer(for: key)
        signer.defect = defect.withLock { $0 }
        return try signer.proof(method: method, url: url, accessToken: accessToken, nonce: nonces.nonce(for: url),
                                now: clockEstimate.providerNow(deviceNow: clock.now()))
    }

    /// The one DPoP nonce retry (RFC 9449 §8, §9): every answer's `DPoP-Nonce` is kept for `url`'s origin, and an
    /// answer that asks for a nonce and gave one is followed by one more `send` (a fresh proof), never two.
    /// - Throws: `send`'s error; `failure` of ``DPoPError/invalidNonce(reason:)`` for an absurd nonce (not kept).
    package func answeringNonceChallenge<E: Error>(
        isolation: isolated (any Actor)? = #isolation, for url: URL, failure: (DPoPError) -> E,
        _ send: () async throws(E) -> HTTPResponse
    ) async throws(E) -> HTTPResponse {
        func keep(_ response: HTTPResponse) throws(E) -> Bool {
            guard let header = response.header("DPoP-Nonce") else { return false }
            do {
                try nonces.remember(header, for: url)
            } catch {
                throw failure(error)
            }
            return true
        }
        let response = try await send()
        guard try keep(response), Self.asksForNonce(response) else { return response }
        let retried = try await send()
        _ = try keep(retried)
        return retried
    }

    /// Whether `response` asks for a DPoP nonce: an OAuth error `use_dpop_nonce` in a `400` (RFC 9449 §8; the `401`
    /// or `403` some providers use), or a `401` whose `WWW-Authenticate` has a `DPoP` challenge with that error (§9).
    static func asksForNonce(_ response: HTTPResponse) -> Bool {
        guard [400, 401, 403].contains(response.status) else { return false }
        if response.jsonBody?.objectValue?["error"]?.stringValue == "use_dpop_nonce" { return true }
        guard response.status == 401, let field = response.header("WWW-Authenticate"),
              let challenges = AuthenticationChallenges(field) else { return false }
        return challenges.first(schemes: ["dpop"], error: "use_dpop_nonce") != nil
    }

    private func signer(for key: DPoPKey) -> DPoPProofSigner {
        signers.withLock { cached in
            if let signer = cached, signer.key == key { return signer }
            let signer = DPoPProofSigner(key: key, crypto: crypto)
            cached = signer
            return signer
        }
    }
}
