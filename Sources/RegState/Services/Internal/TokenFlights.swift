import Foundation

/// The flights of the tokens the service hands out, in one place: the backend security token's, the access-token
/// answer's, and the backoff of an access token that was renewed for a rejection and rejected again.
final class TokenFlights: Sendable {
    /// The single flight of the backend security token (both modes).
    let security: SecurityTokenFlight
    /// The ``RegStateService/validAccessToken()`` answer being worked out, shared by every caller that arrives
    /// meanwhile.
    let accessToken = SingleFlight<Result<AccessTokenAnswer, any Error>>()
    /// Access tokens renewed for a rejection and rejected again: not renewed again before the backoff.
    private let accessBackoff = LockedValue(RejectionBackoff())
    private let clock: any RegStateClock

    init(clock: any RegStateClock) {
        self.clock = clock
        security = SecurityTokenFlight(clock: clock)
    }

    /// Whether `token` was renewed for a rejection, rejected again, and the backoff has not passed.
    func isHeldOff(_ token: String) -> Bool {
        let now = clock.now()
        return accessBackoff.withLock { $0.isExhausted(token, at: now) }
    }

    /// `token` (a renewed access token) was rejected again: hold it off until the backoff has passed.
    func holdOff(_ token: String) {
        let now = clock.now()
        accessBackoff.withLock { _ = $0.holdOff(token, at: now) }
    }
}
