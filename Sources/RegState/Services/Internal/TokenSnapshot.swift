import Foundation

/// The stored credentials at one moment, decoded once: what one decision (hand out a token, renew, log out,
/// confirm) needs to know, so that its facts all come from the same record. The record's fields read through it
/// (`snapshot.accessToken`); what depends on the clock was decided when it was taken.
///
/// It holds token material and lives only as long as the decision; it is never logged (its description is redacted).
@dynamicMemberLookup
package struct TokenSnapshot: Sendable, CustomStringConvertible {
    /// The record it was taken from.
    package let record: StoredCredentials
    /// Whether the access token was usable beyond the grace period when the snapshot was taken.
    package let isUsable: Bool
    /// The backend security token, when one is stored and was not expired when the snapshot was taken.
    package let securityToken: String?

    init(_ credentials: StoredCredentials, isUsable: Bool, securityTokenUsable: Bool) {
        record = credentials
        self.isUsable = isUsable
        securityToken = securityTokenUsable ? credentials.securityToken : nil
    }

    /// A field of the record, as it was stored.
    package subscript<Value>(dynamicMember field: KeyPath<StoredCredentials, Value>) -> Value {
        record[keyPath: field]
    }

    /// The non-secret summary, when the credentials belong to a registration.
    package var session: StoredSession? { record.summary }
    /// The stored security token whatever its expiry: the one a renewal replaces.
    package var storedSecurityToken: String? { record.securityToken }

    /// Redacted: a snapshot holds tokens.
    package var description: String { "TokenSnapshot(usable: \(isUsable), session: \(session != nil))" }
}
