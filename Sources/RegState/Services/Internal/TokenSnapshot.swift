import Foundation

/// The stored credentials at one moment, decoded once, so that every fact of one decision (hand out a token, renew,
/// log out, confirm) comes from the same record; what depends on the clock was decided when it was taken. It holds
/// tokens and lives as long as the decision: its description is redacted.
@dynamicMemberLookup
package struct TokenSnapshot: Sendable, RedactedDescription {
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
