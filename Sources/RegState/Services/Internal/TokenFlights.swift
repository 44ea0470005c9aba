import Foundation

/// The flights of the tokens the service hands out, in one place: the backend security token's and the access-token
/// answer's. (A token renewed for a rejection and rejected again is held in the store, ``RejectionHold``.)
final class TokenFlights: Sendable {
    /// The single flight of the backend security token (both modes).
    let security: SecurityTokenFlight
    /// The ``RegStateService/validAccessToken()`` answer being worked out, shared by every caller that arrives
    /// meanwhile.
    let accessToken = SingleFlight<Result<AccessTokenAnswer, RegStateServiceError>>()

    init(clock: any RegStateClock) {
        security = SecurityTokenFlight(clock: clock)
    }
}
