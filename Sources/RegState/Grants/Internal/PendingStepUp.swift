import Foundation

/// The step-up login in progress, in the secure store only (it holds the PKCE verifier, `state`, `nonce`) so that it
/// survives a kill; its tokens replace the session it names (``sessionID``), and only for the same ``subject``.
struct PendingStepUp: CodeGrantRecord, Equatable, RedactedDescription {
    /// The secure-store key of the record.
    static let storeKey = "pending_step_up"

    /// The record's format.
    var version = 1
    /// The authorization request: URL, `state`, `nonce`, PKCE verifier, redirect URI, when it was made.
    var request: AuthorizationRequest
    /// What the sign-in must meet.
    var requirement: AuthenticationRequirement
    /// The grant this record is (its `state`).
    var grantID: String { request.state }
    /// The issuer identifier of the session (and of the login).
    var issuer: String
    /// The client id of the login.
    var clientID: String
    /// The session's user (`sub`): the new ID token must name this subject.
    var subject: String
    /// The credentials record's session identifier: the tokens replace this session's only.
    var sessionID: String?
    /// The thumbprint of the DPoP key the session's tokens are bound to, when they are: the new ones are bound to it.
    var dpopKeyThumbprint: String?

    /// The creation time only; never the verifier, `state` or `nonce`.
    var description: String { "PendingStepUp(createdAt: \(createdAt), secrets redacted)" }
}
