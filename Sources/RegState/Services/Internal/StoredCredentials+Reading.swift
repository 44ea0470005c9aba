import Foundation

extension StoredCredentials {
    /// The one reader of a credentials record, with the strict byte-level JSON reader; `nil` when the record is
    /// damaged. The rules are those of the synthesized `Decodable` of earlier versions: `stage` and `access_token`
    /// required, every other member optional (absent or `null` is `nil`), dates as seconds since 1970, unknown
    /// members ignored, a member of the wrong type damages the record.
    static func read(_ data: Data) -> StoredCredentials? {
        guard var fields = JSONFields(parsing: data),
              case .string(let stageName)? = fields.object["stage"], let stage = Stage(rawValue: stageName),
              case .string(let accessToken)? = fields.object["access_token"]
        else { return nil }
        var record = StoredCredentials(stage: stage, accessToken: accessToken)
        record.registrationType = fields.raw("registration_type", as: RegistrationType.self)
        record.profile = fields.profile("profile")
        record.idToken = fields.string("id_token")
        record.refreshToken = fields.string("refresh_token")
        record.expiresAt = fields.date("expires_at")
        record.issuedAt = fields.date("issued_at")
        record.refreshExpiresAt = fields.date("refresh_expires_at")
        record.securityToken = fields.string("security_token")
        record.securityTokenExpiresAt = fields.date("security_token_expires_at")
        record.tokenType = fields.string("token_type")
        record.dpopThumbprint = fields.string("dpop_jkt")
        record.renewalStartedAt = fields.date("renewal_started_at")
        record.issuer = fields.string("issuer")
        record.clientID = fields.string("client_id")
        record.accessTokenHold = RejectionHold.read(&fields, "access_token_hold")
        record.securityTokenHold = RejectionHold.read(&fields, "security_token_hold")
        record.accessTokenBackoff = RejectionHold.read(&fields, "access_token_backoff")
        record.securityTokenBackoff = RejectionHold.read(&fields, "security_token_backoff")
        record.accessTokenBackoffIssue = fields.raw("access_token_backoff_issue", as: TransientIssue.self)
        record.securityTokenBackoffIssue = fields.raw("security_token_backoff_issue", as: TransientIssue.self)
        record.sessionID = fields.string("session_id")
        return fields.mismatch ? nil : record
    }
}
