import Foundation
import RegState

/// Where ongoing access goes on each fact of its flow, and what its subscribers are told: the pure table
/// ``OngoingAccessService`` applies (the service does the I/O), as `RegStateMachine` is the session's.
enum OngoingAccessMachine {
    /// One fact of the flow.
    enum Input: Equatable {
        /// An authorization begins.
        case began
        /// The refresh token has expired or was refused, and the user is sent through consent again.
        case reconsentNeeded
        /// The access token was refreshed; the session is not open yet.
        case refreshed(accessTokenExpiresAt: Date)
        /// The authorization ended with an open session.
        case authorized(OngoingAccessAuthorization)
        /// The authorization failed; `previous` is the state it began from.
        case failed(OngoingAccessError, previous: OngoingAccessState)
    }

    /// The state after `input` in `state`, and the events to send, in order. A second authorization while one runs is
    /// ``OngoingAccessError/authorizationInProgress``: refused, not queued, nothing changes.
    static func transition(_ state: OngoingAccessState, on input: Input) throws(OngoingAccessError)
        -> (state: OngoingAccessState, events: [OngoingAccessEvent])
    {
        switch input {
        case .began:
            if case .authorizing = state { throw .authorizationInProgress }
            return (.authorizing, [])
        case .reconsentNeeded:
            return (state, [.reconsentNeeded])
        case .refreshed(let expiry):
            return (state, [.refreshed(accessTokenExpiresAt: expiry)])
        case .authorized(let result):
            switch result.origin {
            case .consent: return (.authorized(result.session), [.authorized(scope: result.session.scope)])
            case .restored: return (.authorized(result.session), [.restored(refreshed: result.refreshed)])
            }
        case .failed(.oAuthTokenExpired, _):
            // Auto-recovery is off and the refresh token is gone: only consent opens access again.
            return (.expired, [.expired])
        case .failed(let error, let previous):
            // A failure stores nothing, so the state before the attempt still holds.
            return (previous, [.failed(error)])
        }
    }
}
