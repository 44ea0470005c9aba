import Foundation
import RegState

/// Keeps the ongoing-access token in a `SecureStore`, as its own record beside the registration credentials.
///
/// The record lives under ``recordKey`` alone: the registration engine never reads, writes or clears it, and this
/// store never touches the engine's keys. One write replaces the whole record, so a crash leaves the old token or the
/// new one.
public struct OngoingAccessTokenStore: Sendable {
    /// The key of the record.
    public static let recordKey = TokenService.ongoingAccessKey
    /// The record's format version.
    static let currentVersion = 1

    /// The stored record: the token and the scope it was authorized for.
    public struct Record: Sendable, Equatable, Codable {
        /// The format version.
        var version: Int
        /// The token.
        public var token: OAuthToken
        /// The scope asked for when the token was obtained.
        public var scope: OngoingAccessScope

        /// Creates a record.
        public init(token: OAuthToken, scope: OngoingAccessScope) {
            version = OngoingAccessTokenStore.currentVersion
            self.token = token
            self.scope = scope
        }
    }

    /// The underlying store.
    public let store: any SecureStore

    /// Keeps records in `store`.
    public init(store: any SecureStore) {
        self.store = store
    }

    /// The stored record, or `nil` when there is none.
    ///
    /// - Throws: `StoreError/unreadable(key:reason:)` when the record exists but cannot be read.
    public func load() throws(StoreError) -> Record? {
        guard let data = try store.data(forKey: Self.recordKey) else { return nil }
        guard let record = try? RecordedTime.decoder().decode(Record.self, from: data) else {
            throw .unreadable(key: Self.recordKey, reason: "not an ongoing-access record")
        }
        guard record.version == Self.currentVersion else {
            throw .unreadable(key: Self.recordKey, reason: "format version \(record.version) is not known")
        }
        return record
    }

    /// Replaces the record.
    public func save(_ record: Record) throws(StoreError) {
        guard let data = try? RecordedTime.encoder().encode(record) else {
            throw .writeFailed(key: Self.recordKey, reason: "the record cannot be encoded")
        }
        try store.set(data, forKey: Self.recordKey)
    }

    /// Removes the record; removing a missing one is not an error.
    public func remove() throws(StoreError) {
        try store.removeValue(forKey: Self.recordKey)
    }
}
