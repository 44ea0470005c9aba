import Foundation

/// The removals a session's end, a failed or an abandoned registration make, under the store's lock: only what this
/// service wrote (``OwnedRecords``), never another process's session, provisional tokens or pending login.
extension TokenService {
    /// Under the store's lock, removes the credentials of the session this service holds (not another session's or
    /// configuration's), its pending login and, unless `keepingOngoingAccess`, ongoing access (not the installation
    /// id); whether the stored session was this one's (or none was stored): its DPoP key may go too.
    @discardableResult
    package func clearAll(keepingOngoingAccess: Bool = false) throws(StoreError) -> Bool {
        // Reads that throw: a store that cannot be read now (a locked device) removes nothing, rather than taking
        // another configuration's record for "none stored".
        let ours = try holdsStoredSession()
        if ours, !(try isBoundElsewhere()) {
            try store.removeValue(forKey: Self.credentialsKey)
            seen = .some(nil)
        }
        try store.removeValue(forKey: Self.quarantineKey)
        if let login = try? pending(PendingLogin.self), owned.pendingLogins.contains(login.request.state) {
            try store.removeValue(forKey: PendingLogin.storeKey)
        }
        if ours, !keepingOngoingAccess {
            try store.removeValue(forKey: Self.ongoingAccessKey)
            // Read first: most stores never held one, and a removal syncs the directory.
            if try store.data(forKey: Self.ongoingAccessBackoffKey) != nil {
                try store.removeValue(forKey: Self.ongoingAccessBackoffKey)
            }
        }
        return ours
    }

    /// Remembers the thumbprint of the DPoP key this service made for its registration in progress (`nil`: none).
    func madeRegistrationKey(_ thumbprint: String?) {
        owned.registrationKey = thumbprint
    }

    /// That thumbprint, forgotten as it is taken (the attempt failed).
    func takeOwnRegistrationKey() -> String? {
        defer { owned.registrationKey = nil }
        return owned.registrationKey
    }

    /// Whether the stored record is the session this service holds (or none readable is stored).
    func holdsStoredSession() throws(StoreError) -> Bool {
        guard let record = try readRecord() else { return true }
        return owned.holds(record)
    }

    /// Removes the provisional tokens this service wrote (Retry, or a failure before confirmation); confirmed
    /// ones, and another process's provisional tokens, are left alone. Call under the store's lock.
    package func clearProvisional() throws(StoreError) {
        guard let own = owned.provisional, let credentials = try? readRecord() else { return }
        if credentials.stage == .provisional, credentials.sessionID == own {
            try store.removeValue(forKey: Self.credentialsKey)
            seen = .some(nil)
        }
        owned.provisional = nil
    }

    /// At launch: provisional tokens (an app killed on the confirmation page) are removed, with the DPoP key that
    /// registration promoted for them, under the store's lock. A key another registration has put there since stays.
    func removeAbandonedProvisional(dpop: DPoPContext) async {
        guard let record = try? readRecord(), record.stage == .provisional else { return }
        try? await withExclusiveAccess { () throws(StoreError) in
            guard let current = try readRecord(), current.stage == .provisional else { return }
            try store.removeValue(forKey: Self.credentialsKey)
            seen = .some(nil)
            if let thumbprint = current.dpopThumbprint, (try? dpop.keys.load())?.thumbprint == thumbprint {
                dpop.forgetSession(removingKey: true)
            }
        }
    }
}
