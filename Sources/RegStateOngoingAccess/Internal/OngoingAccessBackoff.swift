import Foundation
import RegState

/// Ongoing access's transient backoff as the store keeps it, under `TokenService.ongoingAccessBackoffKey`: a record of
/// its own beside the token's, so that writing a hold never replaces a token another process has just stored, and a
/// successful call removes it. `{"version": 1, "until": seconds, "backoff": seconds}`; the decision about it is
/// `RenewalHoldPolicy`'s, the same as for the access token and the backend security token.
struct OngoingAccessBackoff: Codable, Equatable {
    /// The format version.
    var version: Int
    /// Until when calls to the provider are held.
    var until: Date
    /// The hold's length (the next failure's grows from it).
    var backoff: TimeInterval

    static let currentVersion = 1

    /// The record of `hold`.
    init(_ hold: RejectionHold) {
        version = Self.currentVersion
        until = hold.until
        backoff = hold.backoff
    }

    /// The hold it stands for; `nil` for a record of another version or with a length out of range (a damaged record
    /// holds nothing: the hold is a courtesy to the provider, never a reason to refuse the app).
    var hold: RejectionHold? {
        guard version == Self.currentVersion, let length = RecordedTime.lifetime(backoff) else { return nil }
        return RejectionHold(until: until, backoff: length)
    }
}
