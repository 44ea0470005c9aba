import Foundation

extension StoredCredentials {
    /// The one reader of a credentials record (``JSONFields``' rules; `stage` and `access_token` required, dates as
    /// seconds since 1970); `nil` when the record is damaged.
    static func read(_ data: Data) -> StoredCredentials? {
        do {
            let fields = try JSONFields(parsing: data)
            var record = StoredCredentials(stage: try fields.value("stage"), accessToken: try fields.value("access_token"))
            record.registrationType = try fields.optional("registration_type")
            record.profile = try fields.optional("profile")
            record.idToken = try fields.optional("id_token")
            record.refreshToken = try fields.optional("refresh_token")
            record.expiresAt = try fields.optional("expires_at")
            record.issuedAt = try fields.optional("issued_at")
            record.refreshExpiresAt = try fields.optional("refresh_expires_at")
            record.securityToken = try fields.optional("security_token")
            record.securityTokenExpiresAt = try fields.optional("security_token_expires_at")
            record.tokenType = try fields.optional("token_type")
            record.dpopThumbprint = try fields.optional("dpop_jkt")
            record.renewalStartedAt = try fields.optional("renewal_started_at")
            record.issuer = try fields.optional("issuer")
            record.clientID = try fields.optional("client_id")
            record.accessTokenHold = try fields.optional("access_token_hold")
            record.securityTokenHold = try fields.optional("security_token_hold")
            record.accessTokenBackoff = try fields.optional("access_token_backoff")
            record.securityTokenBackoff = try fields.optional("security_token_backoff")
            record.accessTokenBackoffIssue = try fields.optional("access_token_backoff_issue")
            record.securityTokenBackoffIssue = try fields.optional("security_token_backoff_issue")
            record.sessionID = try fields.optional("session_id")
            return record
        } catch {
            return nil
        }
    }
}

extension StoredCredentials.Stage: RecordValue {}
