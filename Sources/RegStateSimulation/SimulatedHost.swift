import RegState

/// The host app of a host world: it logs in with its own OIDC client, keeps the ID tokens it got, and
/// answers RegState's notices (**E** awaitingHost), now or some steps later.
struct SimulatedHost {
    /// The host's own OIDC client (its login does not go through the simulated network: that is the host's business).
    let client: OIDCClient
    /// Every ID token the host got, oldest first.
    var idTokens: [String] = []
    /// Incarnations told to renew that the host has not answered yet, in order.
    var inbox: [Int] = []
    /// Per incarnation: notices received minus answers given. An answer may be counted before the notice it answers
    /// is heard (the notice travels through an event stream, the answer is the harness's own call), so the balance
    /// may go to -1 (one answer in credit, never more); a notice that brings it to 2 is a second notice with no
    /// answer in between.
    var unanswered: [Int: Int] = [:]
    /// During the heal the host answers every notice at once, with a fresh token.
    var healing = false
    /// Whether the host's own user is logged in (a login succeeded and no logout or denial came since).
    var loggedIn = false
}

/// What the host pushes: a token from a new login, the last one again, or its oldest (often expired).
enum HostPush: String {
    case fresh, same, stale
}
