import Foundation

/// The social login in progress, kept in the secure store beside the credentials: written when the
/// authorization URL is issued, taken (read and removed in one step) when its redirect arrives, removed when the
/// login is cancelled, superseded, fails, or the user logs out or clears the state. The caller holds the store's lock
/// (``withExclusiveAccess(_:)``) around every call, so that two processes cannot both take one login.
extension TokenService {
    /// Stores `login` in place of any earlier one (a newer begin supersedes an older pending login).
    func savePendingLogin(_ login: PendingLogin) throws(StoreError) {
        try save(login, forKey: PendingLogin.storeKey)
        owned.wrotePendingLogin(state: login.request.state)
    }

    /// The stored pending login of this service's issuer and client, `nil` when there is none. A record that cannot
    /// be read, or that belongs to another configuration, reads as none (a login is cheap to start again).
    func pendingLogin() -> PendingLogin? {
        (try? readPendingLogin()) ?? nil
    }

    /// ``pendingLogin()``, throwing when the store cannot be read now (a locked device) instead of answering "none".
    func readPendingLogin() throws(StoreError) -> PendingLogin? {
        guard let data = try store.data(forKey: PendingLogin.storeKey) else { return nil }
        guard let login = try? RecordedTime.decoder().decode(PendingLogin.self, from: data), login.belongs(to: binding),
              PendingLogin.refusalCounts.contains(login.refusedRedirects ?? 0),
              !owned.discardedLogins.contains(login.request.state)
        else { return nil }
        return login
    }

    /// Remembers that the login with `state` was discarded past the refused-redirect bound: it reads as none here from
    /// now on, whether or not the store let its record be removed.
    func discardedPendingLogin(state: String) {
        owned.discardedPendingLogin(state: state)
    }

    /// Reads and removes the stored pending login: the one with `state` when given (the login this process holds in
    /// memory; another one is left for its owner), otherwise whichever is stored. An unreadable record is removed.
    ///
    /// - Returns: the login taken, `nil` when there was none (or only another one).
    /// - Throws: ``StoreError`` when it cannot be read now (a locked device: nothing is removed) or removed.
    func takePendingLogin(state: String?) throws(StoreError) -> PendingLogin? {
        // A read the store refuses is not "none": removing the record after it destroyed the login it could not read.
        let stored = try readPendingLogin()
        if let state, let stored, stored.request.state != state { return nil }
        try store.removeValue(forKey: PendingLogin.storeKey)
        return stored
    }
}
