import Foundation

/// What one service (one process, one launch) wrote or took up in the shared store, so that what it removes at a
/// session's end or after a failed or abandoned registration is only its own. Identifiers only, no token.
package struct OwnedRecords: Sendable {
    /// The session the service holds (``StoredCredentials/sessionID``): read at launch, written by its own
    /// registration. `nil` for a record of the format before session ids, or none.
    var session: String?
    /// The session id of the provisional tokens this service wrote, while it may remove them (until confirmed).
    var provisional: String?
    /// The thumbprint of the DPoP key this service made for its registration in progress (its registration-key
    /// record), while the attempt may remove it.
    var registrationKey: String?
    /// The `state` of each social login this service began (its pending-login records), most recent last.
    var pendingLogins: [String] = []

    /// The most pending logins remembered (older ones were superseded long ago).
    package static let pendingLoginMemory = 8

    /// Remembers a pending login this service wrote.
    mutating func wrotePendingLogin(state: String) {
        pendingLogins.append(state)
        if pendingLogins.count > Self.pendingLoginMemory { pendingLogins.removeFirst() }
    }

    /// Whether `record` is this service's to end: a confirmed session is every process's (docs/Internals-Services.md),
    /// provisional tokens only the attempt's that wrote them (another process may be confirming them).
    func holds(_ record: StoredCredentials) -> Bool {
        record.stage != .provisional || record.sessionID == session
    }
}
