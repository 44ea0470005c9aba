import Foundation

/// Renews the access token with the refresh-token grant (seed 002's RenewalService), one flight at a time.
///
/// Concurrent callers share one renewal: with rotating refresh tokens a second, parallel grant would present a refresh
/// token the first one just retired, and the provider's reuse detection would revoke the whole session. The rotated
/// refresh token is persisted (in the same atomic write as the new access token) before any caller gets a result.
public actor RenewalService {
    private let tokens: TokenService
    private let provider: any TokenRefreshing
    private let clock: any RegStateClock
    private var inFlight: Task<RenewalResult, Never>?
    private var flights = 0

    /// Creates the service.
    public init(tokens: TokenService, provider: any TokenRefreshing, clock: any RegStateClock = SystemClock()) {
        self.tokens = tokens
        self.provider = provider
        self.clock = clock
    }

    /// Renews the stored credentials, unless another caller already replaced `staleAccessToken`.
    ///
    /// Joining a flight in progress returns that flight's result. When the stored access token is no longer
    /// `staleAccessToken` and is usable, another flight already renewed it: the result says so and no request is made.
    ///
    /// - Parameter staleAccessToken: the access token the caller found expired or rejected; `nil` forces a renewal.
    public func renew(replacing staleAccessToken: String?) async -> RenewalResult {
        if let inFlight { return await inFlight.value }
        if let staleAccessToken, let current = await tokens.accessToken(), current.token != staleAccessToken,
           await tokens.isUsable(current.expiresAt), let stored = await tokens.storedSession() {
            return RenewalResult(flight: nil, outcome: .success(stored), stored: stored)
        }
        // Checked again: another caller may have started a flight while this one awaited the token service.
        if let inFlight { return await inFlight.value }
        flights += 1
        let flight = flights
        let task = Task { await self.perform(flight: flight) }
        inFlight = task
        let result = await task.value
        if flights == flight { inFlight = nil }
        return result
    }

    private func perform(flight: Int) async -> RenewalResult {
        let stored = await tokens.storedSession()
        guard let refreshToken = await tokens.refreshToken() else {
            return RenewalResult(flight: flight, outcome: .failure(.noRefreshToken), stored: stored)
        }
        let response: TokenResponse
        do {
            response = try await provider.refreshTokens(using: refreshToken)
        } catch {
            return RenewalResult(flight: flight, outcome: .failure(classify(error, stored: stored)), stored: stored)
        }
        var profile: Profile?
        if let idToken = response.idToken {
            // OIDC Core 12.2: a refreshed ID token must be about the same subject.
            guard let refreshed = try? ProfileService().profile(fromIDToken: idToken) else {
                return RenewalResult(flight: flight, outcome: .failure(.transient(.ssoUnspecifiedIssue)), stored: stored)
            }
            if let stored, refreshed.subject != stored.profile.subject || refreshed.issuer != stored.profile.issuer {
                return RenewalResult(flight: flight, outcome: .failure(.denied(reason: "the refreshed identity is another user")),
                                     stored: stored)
            }
            profile = refreshed
        }
        do {
            guard let renewed = try await tokens.storeRenewed(response, profile: profile, replacing: refreshToken) else {
                return RenewalResult(flight: flight, outcome: .failure(.storage("the session changed during renewal")),
                                     stored: await tokens.storedSession())
            }
            return RenewalResult(flight: flight, outcome: .success(renewed), stored: renewed)
        } catch {
            let reason = (error as? any LocalizedError)?.errorDescription ?? "write failed"
            return RenewalResult(flight: flight, outcome: .failure(.storage(reason)), stored: stored)
        }
    }

    /// Seed 000's rules: only an explicit refusal is final; a transient failure is final only when every token,
    /// the refresh token included, has expired.
    private func classify(_ error: any Error, stored: StoredSession?) -> RenewalFailure {
        // The token-endpoint answer rule is OIDCError.isRefusal's; the reason journaled is the provider's code or
        // what was unexplained about its answer.
        if let error = error as? OIDCError, error.isRefusal { return .denied(reason: error.refusalReason) }
        if let refreshExpiresAt = stored?.refreshExpiresAt, refreshExpiresAt <= clock.now() {
            return .credentialsExhausted
        }
        if let error = error as? OIDCError, case .transport = error { return .transient(.noInternet) }
        if let error = error as? OIDCError, case .notTheProvider = error { return .transient(.noInternet) }
        if error is TransportError { return .transient(.noInternet) }
        return .transient(.ssoUnspecifiedIssue)
    }
}

/// The outcome of one renewal request.
public struct RenewalResult: Sendable, Equatable {
    /// The flight that produced it; `nil` when no grant was needed because another flight already renewed.
    public var flight: Int?
    /// The new session summary, or why renewal failed.
    public var outcome: Result<StoredSession, RenewalFailure>
    /// What is stored after the attempt.
    public var stored: StoredSession?
}

/// Something that can run the refresh-token grant: the identity provider seam ``RenewalService`` depends on.
public protocol TokenRefreshing: Sendable {
    /// Exchanges `refreshToken` for new tokens.
    ///
    /// - Throws: ``OIDCError`` (or ``TransportError``); ``OIDCError/isRefusal`` marks an explicit denial.
    func refreshTokens(using refreshToken: String) async throws -> TokenResponse
}

extension OIDCClient: TokenRefreshing {
    /// The refresh-token grant at the discovered token endpoint.
    public func refreshTokens(using refreshToken: String) async throws -> TokenResponse {
        try await refresh(refreshToken: refreshToken)
    }
}
