import Foundation

/// Who renews the session: RegState itself (it logs in and refreshes) or the host app, which has its own login and
/// pushes ID tokens in (``RegStateService/updateToken(idToken:)``).
public enum SessionSource: String, Sendable, Equatable, Codable, CaseIterable {
    /// RegState logs in and renews with the refresh token (``RegStateService``).
    case selfRenewing
    /// The host app logs in and renews; RegState exchanges the ID tokens it is handed for the backend security token
    /// and tells the host once when that token expired (**E** ``RenewalFailure/awaitingHost``).
    case host
}
