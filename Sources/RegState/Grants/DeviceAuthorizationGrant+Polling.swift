import Foundation

/// One poll and its reservation: the stored record decides when a poll may leave, and every answer is written back
/// to it under the store's lock.
extension DeviceAuthorizationGrant {
    /// What the stored record allows now.
    enum Reservation: Sendable {
        /// Poll now; the record (with the next poll's earliest instant) is stored.
        case poll(PendingDeviceAuthorization)
        /// Wait this many seconds first (another process polls, or the interval is not over).
        case wait(TimeInterval, PendingDeviceAuthorization)
        /// The code has expired: the record is removed, nothing is sent.
        case expired
        /// The authorization is no longer stored: another process finished it, or the app cancelled it.
        case gone
    }

    /// What one poll's answer means.
    enum Answer: Sendable {
        case tokens(TokenResponse)
        case pending
        case slowDown
        /// No answer, or the provider's trouble; `retryAfter`: its `Retry-After`, when it sent one.
        case transient(retryAfter: TimeInterval?)
        case ended(RegistrationFailure)
    }

    /// Under the store's lock: the stored record (with what this process knows more, ``PendingDeviceAuthorization/merged(with:)``)
    /// says whether a poll may leave now; when it may, its reservation is stored before it leaves.
    func reserve(_ known: PendingDeviceAuthorization) async throws(StoreError) -> Reservation {
        try await tokens.withExclusiveAccess { () async throws(StoreError) -> Reservation in
            // A read the store refuses (a locked device) throws: the poll waits for it, it is not "gone".
            guard let stored = try await tokens.pending(PendingDeviceAuthorization.self), stored.deviceCode == known.deviceCode else {
                return .gone
            }
            var record = stored.merged(with: known)
            let now = clock.now()
            switch record.nextStep(at: now, for: pollerID) {
            case .expired:
                try await tokens.removePending(PendingDeviceAuthorization.self, id: record.deviceCode)
                return .expired
            case .wait(let seconds):
                return .wait(seconds, record)
            case .takeOver:
                record.claim(at: now, by: pollerID)
                if record.notBefore > now {
                    try await tokens.savePending(record)
                    return .wait(record.notBefore.timeIntervalSince(now), record)
                }
                record.reservePoll(at: now, by: pollerID)
                try await tokens.savePending(record)
                return .poll(record)
            case .poll:
                record.reservePoll(at: now, by: pollerID)
                try await tokens.savePending(record)
                return .poll(record)
            }
        }
    }

    /// `change` applied to the stored record (merged with `known`) and stored; when the store cannot be written,
    /// the change is kept in memory and stored with the next reservation.
    func update(_ known: PendingDeviceAuthorization,
                _ change: @Sendable (inout PendingDeviceAuthorization, Date) -> Void) async -> PendingDeviceAuthorization {
        var changed = known
        change(&changed, clock.now())
        do {
            return try await tokens.withExclusiveAccess { () async throws(StoreError) -> PendingDeviceAuthorization in
                guard let stored = try await tokens.pending(PendingDeviceAuthorization.self), stored.deviceCode == known.deviceCode,
                      stored.poller == pollerID else { return changed }
                var record = stored.merged(with: known)
                change(&record, clock.now())
                record = record.merged(with: changed)
                try await tokens.savePending(record)
                return record
            }
        } catch {
            logger.log(.warning, "device authorization: the poll's answer is kept in memory only (\(error.localizedDescription))")
            return changed
        }
    }

    /// One token request with the device code (RFC 8628 §3.4), and what its answer means (§3.5).
    func pollOnce(_ deviceCode: String, proofKey: DPoPKey?) async -> Answer {
        do {
            return .tokens(try await provider.tokenRequest(proofKey: proofKey, [
                ("grant_type", Self.grantType),
                ("device_code", deviceCode),
                ("client_id", configuration.clientID),
            ]))
        } catch {
            if case .oauth(let code, let description, _) = error {
                switch code {
                case "authorization_pending": return .pending
                case "slow_down": return .slowDown
                case "access_denied": return .ended(.authorizationDenied(error: code, description: description))
                case "expired_token": return .ended(.codeExpired)
                default: break
                }
            }
            return error.isTransient ? .transient(retryAfter: error.retryAfter) : .ended(RegistrationFailure(error))
        }
    }
}
