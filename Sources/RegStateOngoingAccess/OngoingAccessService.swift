import Foundation
import RegState

/// Ongoing access in the digi.me style: the user consents once, the app keeps the returned
/// ``OAuthToken``, and later restores access with it without the user.
///
/// It sits beside `RegStateService` with its own configuration, dependencies, state, events and store record; it
/// never reads or changes the registration session.
///
/// ```swift
/// let access = OngoingAccessService(configuration: config, dependencies: deps)
/// let result = try await access.authorizeOngoingAccess(scope: nil, oAuthToken: storedToken)
/// storedToken = result.oAuthToken          // may be new: an expired access token was refreshed on the way
/// let files = try await access.files()
/// ```
///
/// Every request is a JWT signed with the app's key (PS512) with a fresh nonce and timestamp; every answer is a JWS
/// verified against the provider's pinned key before anything in it is used. A failure stores nothing and leaves the
/// token the app holds usable.
public actor OngoingAccessService {
    /// How many events a subscriber may fall behind before the oldest are dropped.
    public static let subscriberBufferSize = 64

    /// The configuration in use.
    public nonisolated let configuration: OngoingAccessConfiguration
    /// Where ongoing access stands.
    public private(set) var state: OngoingAccessState = .idle

    let dependencies: OngoingAccessDependencies
    let client: OngoingAccessClient
    private let broadcast = EventBroadcast<OngoingAccessEvent>(bufferSize: OngoingAccessService.subscriberBufferSize)
    /// The token of the open session, for data calls; private to the actor, never journaled or shown.
    var currentToken: OAuthToken?
    /// The transient backoff's policy (``OngoingAccessService+Backoff.swift``): RegState's, for every token kind.
    let holdPolicy = RenewalHoldPolicy.standard
    /// The backoff when no token store is configured (with one, the store keeps it).
    var backoffInMemory: RejectionHold?
    /// When this service last let the user's action cut a hold short (once per backoff step).
    var lastBackoffCut: Date?

    /// Creates the service; nothing is sent until ``authorizeOngoingAccess(scope:oAuthToken:)``.
    public init(configuration: OngoingAccessConfiguration, dependencies: OngoingAccessDependencies) {
        self.configuration = configuration
        self.dependencies = dependencies
        client = OngoingAccessClient(configuration: configuration, dependencies: dependencies)
    }

    /// A stream of events for one subscriber: every event from now on, in order. It ends when the subscriber stops.
    public nonisolated func events() -> AsyncStream<OngoingAccessEvent> {
        broadcast.subscribe()
    }

    /// How many subscribers are listening (tests show that one that stops is dropped).
    package nonisolated var subscriberCount: Int { broadcast.count }

    /// The token in the configured ``OngoingAccessTokenStore``, or `nil` when there is no store or no record.
    ///
    /// - Throws: ``OngoingAccessError/store(_:)`` when the record cannot be read.
    public func storedRecord() throws(OngoingAccessError) -> OngoingAccessTokenStore.Record? {
        do {
            return try dependencies.tokenStore?.load()
        } catch {
            throw .store(error)
        }
    }

    /// Authorizes ongoing access: with no token, through the user's consent; with a token, without the user.
    ///
    /// With a token whose access token has expired, it is refreshed first and the new token is returned (and stored,
    /// when a token store is configured): **replace the token you hold with the returned one**. When the refresh token
    /// has expired (or the provider refuses it), ``OngoingAccessConfiguration/autoRecoverExpiredCredentials`` decides:
    /// `true` sends the user through consent again, `false` throws ``OngoingAccessError/oAuthTokenExpired``. A `nil`
    /// `scope` reads everything the contract allows.
    /// A call that would reach the provider while a transient failure's backoff holds (here, in another process
    /// sharing the token store, or before a relaunch) fails at once with ``OngoingAccessError/backingOff(until:)``,
    /// sending nothing; consent (no token) is the user's own action and may cut the hold short once per backoff step.
    /// - Throws: ``OngoingAccessError``; nothing is stored then and the given token is unchanged.
    public func authorizeOngoingAccess(
        scope: OngoingAccessScope? = nil, oAuthToken: OAuthToken? = nil
    ) async throws(OngoingAccessError) -> OngoingAccessAuthorization {
        let before = state
        try apply(.began)
        do throws(OngoingAccessError) {
            let result = try await authorize(scope: scope ?? .all, token: oAuthToken)
            if let store = dependencies.tokenStore {
                do {
                    try store.save(OngoingAccessTokenStore.Record(token: result.oAuthToken, scope: scope ?? .all))
                } catch {
                    throw .store(error)
                }
            }
            currentToken = result.oAuthToken
            noteProviderAnswered()
            try apply(.authorized(result))
            return result
        } catch {
            noteProviderFailure(error)
            try? apply(.failed(error, previous: before))
            throw error
        }
    }

    /// How many events this service has sent since it was created, so a short-lived host (the CLI) can wait for its
    /// printer to catch up without sleeping.
    public private(set) var emittedEventCount = 0

    /// The one place the state changes and events leave: ``OngoingAccessMachine``'s answer for `input`.
    func apply(_ input: OngoingAccessMachine.Input) throws(OngoingAccessError) {
        let (next, events) = try OngoingAccessMachine.transition(state, on: input)
        state = next
        for event in events {
            emittedEventCount += 1
            broadcast.send(event)
        }
    }
}
