import Foundation
import RegState

/// A data session the provider opened for an authorized app (the ongoing-access design's `DMESession`): its scope and lifetime.
///
/// The session key addresses the prepared data; it is not shown in its description, debug description or mirror.
public struct OngoingAccessSession: Sendable, Equatable {
    /// The key the data calls name.
    public let key: String
    /// The scope the provider granted for this session (it may be narrower than asked).
    public let scope: OngoingAccessScope
    /// When the session ends.
    public let expiresAt: Date

    /// Creates a session value.
    public init(key: String, scope: OngoingAccessScope, expiresAt: Date) {
        self.key = key
        self.scope = scope
        self.expiresAt = expiresAt
    }
}

extension OngoingAccessSession: RedactedDescription {
    /// Scope and expiry, not the key.
    public var description: String { "OngoingAccessSession(expires \(RecordedTime.text(expiresAt)), redacted)" }

    /// Scope and expiry, not the key: what `dump` shows.
    public var customMirror: Mirror {
        Mirror(self, children: ["scope": scope, "expiresAt": expiresAt, "key": "redacted"], displayStyle: .struct)
    }
}

/// What ``OngoingAccessService/authorizeOngoingAccess(scope:oAuthToken:)`` hands back.
public struct OngoingAccessAuthorization: Sendable, Equatable {
    /// How access was obtained.
    public enum Origin: String, Sendable, Equatable {
        /// The user consented (first time, or again after the refresh token expired).
        case consent
        /// Restored from the given token without the user.
        case restored
    }

    /// The data session.
    public let session: OngoingAccessSession
    /// The token to keep from now on: replace the stored one with it (it differs after a refresh or a new consent).
    public let oAuthToken: OAuthToken
    /// How access was obtained.
    public let origin: Origin
    /// Whether the access token was refreshed on the way.
    public let refreshed: Bool
}

/// One account (a connected data source) the user shared.
public struct OngoingAccessAccount: Sendable, Equatable, Codable {
    /// The account's identifier.
    public var id: String
    /// The service it comes from, such as `spotify`.
    public var service: String
    /// A name to show.
    public var name: String

    /// Creates an account.
    public init(id: String, service: String, name: String) {
        self.id = id
        self.service = service
        self.name = name
    }
}

/// One file the session may read: its identifier, account and the date of the data it holds.
public struct OngoingAccessFileInfo: Sendable, Equatable, Codable {
    /// The file's identifier.
    public var id: String
    /// The account it belongs to.
    public var accountID: String
    /// The date of the data (what the scope filters on).
    public var date: Date

    /// Creates a file entry.
    public init(id: String, accountID: String, date: Date) {
        self.id = id
        self.accountID = accountID
        self.date = date
    }
}

/// A fetched file: its entry and its JSON content.
public struct OngoingAccessFile: Sendable, Equatable {
    /// The entry.
    public var info: OngoingAccessFileInfo
    /// The content.
    public var content: JSONValue

    /// Creates a file.
    public init(info: OngoingAccessFileInfo, content: JSONValue) {
        self.info = info
        self.content = content
    }
}
