import Foundation

/// A grant's record while it waits for the user, in the secure store so that it survives a kill and is shared by
/// every process on the store; bound to its issuer and client, holding secrets (never journaled or logged), written
/// read and removed through one mechanism (`TokenService+PendingGrant`).
protocol PendingGrantRecord: Sendable, Codable {
    /// The secure-store key of the record.
    static var storeKey: String { get }
    /// The issuer identifier the grant was made for.
    var issuer: String { get }
    /// The client id the grant was made for.
    var clientID: String { get }
    /// What tells this grant from another of its kind (the login's `state`, the device code): a removal names it, so
    /// that it never removes the grant another process began meanwhile.
    var grantID: String { get }
    /// Whether the decoded record's numbers are in range: a record outside is damaged and reads as none.
    var isWellFormed: Bool { get }
    /// Whether the token service remembers the records it wrote (``OwnedRecords``), so that a session's end removes
    /// this process's record only.
    static var isOwnedByWriter: Bool { get }
}

extension PendingGrantRecord {
    var isWellFormed: Bool { true }
    static var isOwnedByWriter: Bool { false }

    /// Whether it was made for `binding`'s issuer and client.
    func belongs(to binding: CredentialBinding?) -> Bool {
        guard let binding else { return true }
        return issuer == binding.issuer && clientID == binding.clientID
    }
}
