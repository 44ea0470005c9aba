import Foundation
import RegState

/// Everything a simulated world remembers, as one `Codable` value so that it can be saved and reloaded whole.
///
/// Tokens, codes and security tokens are keyed by the base64url SHA-256 of their text, so the world file never holds
/// a usable bearer token. The one-time codes of the inbox are kept in clear: reading them is the inbox's purpose.
struct World: Codable, Equatable {
    /// The format version this code reads and writes.
    static let currentVersion = 1
    /// The format version of the saved file.
    var version = World.currentVersion
    /// The RSA signing key, PKCS #1 DER, base64.
    var signingKeyDER: String
    /// The JWK `kid` of the signing key.
    var keyID: String
    /// Users by lowercased email.
    var users: [String: SimulatorUser] = [:]
    /// Authorization codes by hash.
    var codes: [String: AuthorizationCodeRecord] = [:]
    /// Access tokens by hash.
    var accessTokens: [String: AccessTokenRecord] = [:]
    /// Refresh tokens by hash.
    var refreshTokens: [String: RefreshTokenRecord] = [:]
    /// Refresh-token families (one per grant) by identifier.
    var families: [String: TokenFamily] = [:]
    /// The current one-time code of each email address.
    var otps: [String: OneTimeCodeRecord] = [:]
    /// One-time codes delivered to each email address, oldest first.
    var inbox: [String: [String]] = [:]
    /// Backend installations by installation identifier.
    var installations: [String: InstallationRecord] = [:]
    /// Backend security tokens by hash.
    var securityTokens: [String: SecurityTokenRecord] = [:]
    /// Backend profiles by subject.
    var profiles: [String: ProfileRecord] = [:]
    /// Inspection counters.
    var counters = Counters()
    /// A sequence for identifiers that need only be unique within the world.
    var nextSerial = 1
    /// The email of the user the simulated browser is signed in as at the provider (its session cookie); `nil` when
    /// signed out. Optional, so that older world files still read.
    var browserSession: String?
    /// When the browser's session signed in (`auth_time` of the logins it answers without asking) and with which
    /// class (`acr`). Optional, so that older world files still read (a session without one signed in at once).
    var browserSessionAuthTime: Date?
    var browserSessionACR: String?
    /// Pushed authorization requests (RFC 9126) by the hash of their `request_uri`, until used or expired. Optional,
    /// so that older world files still read.
    var pushedRequests: [String: PushedRequestRecord]?
    /// Device authorizations (RFC 8628) by the hash of their `device_code`. Optional, so that older world files
    /// still read.
    var deviceAuthorizations: [String: DeviceAuthorizationRecord]?
}

/// A device authorization (RFC 8628): its user code, what the user decided, and how it was polled.
struct DeviceAuthorizationRecord: Codable, Equatable {
    var userCode: String
    var clientID: String
    var scope: String
    var expiresAt: Date
    /// The interval in force: the announced one, plus 5 s for every `slow_down` answered.
    var interval: TimeInterval
    /// The user's decision: `nil` while pending, the subject who approved, or denied.
    var approvedSubject: String?
    var denied = false
    /// Polls still to answer `authorization_pending` before the decision shows (a user who takes a while).
    var pendingPollsBeforeDecision = 0
    /// Polls still to answer `slow_down` on demand.
    var slowDownsOwed = 0
    /// When each poll arrived, oldest first.
    var polls: [Date] = []
    /// Token answers issued for it (at most one: a used device code is refused).
    var tokenAnswers = 0
    /// Set once its tokens were issued: a later poll is refused (`invalid_grant`).
    var redeemed = false
}

/// A pushed authorization request: its parameters, who pushed it, until when its `request_uri` works, and the key
/// its DPoP proof was signed with.
struct PushedRequestRecord: Codable, Equatable {
    var parameters: [String: String]
    var clientID: String
    var expiresAt: Date
    /// The thumbprint of the push's DPoP proof key (RFC 9449 §10.1): the code is bound to it like to `dpop_jkt`.
    var proofJKT: String?
}

/// An authorization code and what the authorization request said, remembered for the token request.
struct AuthorizationCodeRecord: Codable, Equatable {
    var clientID: String
    var redirectURI: String
    var codeChallenge: String
    var nonce: String?
    var scope: String
    var subject: String
    var authTime: Date
    /// The authentication class of the sign-in (`acr`); `nil` in older world files.
    var acr: String?
    var expiresAt: Date
    /// The `dpop_jkt` of the authorization request (RFC 9449 §10): the code is redeemable only with that key.
    var dpopJKT: String?
    /// Set when redeemed; a second redemption is a replay.
    var redeemed = false
    /// The family the redemption opened, revoked on replay.
    var familyID: String?
}

/// An issued access token.
struct AccessTokenRecord: Codable, Equatable {
    var subject: String
    var clientID: String
    var scope: String
    var expiresAt: Date
    var familyID: String
    var revoked = false
    /// The thumbprint of the DPoP key the token is bound to (`cnf.jkt`); `nil` for a bearer token.
    var jkt: String?
}

/// An issued refresh token; `used` once it has been rotated.
struct RefreshTokenRecord: Codable, Equatable {
    var familyID: String
    var expiresAt: Date?
    var used = false
    /// When the token was retired by a rotation (absent in worlds saved before the reuse grace existed).
    var usedAt: Date?
}

/// All tokens descending from one grant (an authorization code or an OTP login); revoked together.
struct TokenFamily: Codable, Equatable {
    var subject: String
    var clientID: String
    var scope: String
    var authTime: Date
    /// The authentication class of the sign-in (`acr`); `nil` in older world files and for grants without one.
    var acr: String?
    var revoked = false
    /// The DPoP key every token of the family is bound to (public clients, RFC 9449 §5); `nil`: bearer tokens.
    var jkt: String?
}

/// The current passwordless code of one address.
struct OneTimeCodeRecord: Codable, Equatable {
    var code: String
    var expiresAt: Date
    var used = false
    var failedAttempts = 0
    /// Burned after too many wrong attempts: no longer accepted.
    var burned = false
    /// Earlier codes for the same address that a resend replaced (absent in worlds saved before resends existed).
    var superseded: [String]?
    /// When codes were sent to the address, for the send rate limit (absent in older worlds).
    var sentAt: [Date]?
}

/// A device/installation registered with the backend.
struct InstallationRecord: Codable, Equatable {
    var subject: String
    var platform: String
    var formFactor: String
    var registeredAt: Date
    /// Set by a forced logout; the next backend request from the installation answers 403 FORCED_LOGOUT.
    var forcedLogout = false
}

/// A backend security token.
struct SecurityTokenRecord: Codable, Equatable {
    var installationID: String
    var subject: String
    var expiresAt: Date
}

/// A registration profile held by the backend.
struct ProfileRecord: Codable, Equatable {
    var subject: String
    var email: String
    var name: String
    var registrationType: String

    var json: JSONValue {
        ["sub": .string(subject), "email": .string(email), "name": .string(name),
         "registration_type": .string(registrationType)]
    }
}

/// Inspection counters.
struct Counters: Codable, Equatable {
    var tokenRequests = 0
    var refreshGrants = 0
    var revokedTokens = 0
    /// Optional so that a world a CLI run stored before it was counted still reads.
    var keySetRequests: Int?
}
