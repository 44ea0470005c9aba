import Foundation

/// The social login in progress, as kept in the secure store (under ``storeKey``) so that it survives the app being
/// killed while the user is in the browser. It holds secrets (the PKCE verifier, `state`, `nonce`): it lives only in
/// the secure store and in the service's memory, never in the journal, a log or a description.
struct PendingLogin: CodeGrantRecord, Equatable, RedactedDescription {
    /// The secure-store key of the record.
    static let storeKey = "pending_login"

    /// The record's format; a later format adds members, it never changes these (PAR added the request's optional
    /// `requestURIExpiresAt`, which a record written before reads as absent: a plain authorization URL).
    var version = 1
    /// The authorization request: URL, `state`, `nonce`, PKCE verifier, redirect URI, and when it was made.
    var request: AuthorizationRequest
    /// The `prompt` the request carried (``LoginPrompt``'s raw value), if any.
    var prompt: String?
    /// What the login asked for (`max_age`, `acr_values`), which its ID token must meet; `nil` in records written
    /// before logins asked for anything (they asked for nothing: ``AuthenticationRequirement/none``).
    var requirement: AuthenticationRequirement?
    /// The RFC 7638 thumbprint of the DPoP key made for this registration, when DPoP is on.
    var dpopKeyThumbprint: String?
    /// The grant this record is (its `state`).
    var grantID: String { request.state }
    /// The issuer identifier the login was made for.
    var issuer: String
    /// The client id the login was made for.
    var clientID: String
    /// Redirects refused as not this login's, as earlier versions counted them (absent in records written before
    /// that count, and no longer written: a refused redirect changes nothing). Read and range-checked only.
    var refusedRedirects: Int?
    /// The refusal counts a record may hold: a count outside is a damaged record.
    static let refusalCounts = 0...1_000

    /// The login a session's end removes is this process's own.
    static let isOwnedByWriter = true
    /// Whether its refusal count is in range.
    var isWellFormed: Bool { Self.refusalCounts.contains(refusedRedirects ?? 0) }

    /// What the app may see of it at `now`: no secret but the URL it already opened.
    func summary(lifetime: TimeInterval, now: Date) -> PendingSocialLogin {
        PendingSocialLogin(authorizationURL: request.url, startedAt: createdAt,
                           expiresAt: createdAt.addingTimeInterval(lifetime), prompt: prompt.flatMap(LoginPrompt.init),
                           isExpired: isExpired(at: now, lifetime: lifetime),
                           authorizationURLExpiresAt: request.requestURIExpiresAt,
                           isAuthorizationURLExpired: request.isURLExpired(at: now), requirement: requirement)
    }

    /// The creation time only; never the verifier, `state` or `nonce`.
    var description: String { "PendingLogin(createdAt: \(createdAt), secrets redacted)" }
}
