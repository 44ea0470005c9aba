import Foundation
import RegState
import RegStateOngoingAccess
import RegStateSimulator
import Testing
import RegStateTestSupport

@Suite("Ongoing access: consent once, restore later without the user")
struct OngoingAccessFlowTests {
    @Test("The whole flow: pre-authorization, consent, token exchange, session, accounts, files and one file")
    func wholeFlow() async throws {
        let harness = try await OngoingAccessHarness()
        let service = await harness.service()
        var events = EventTape(service.events())
        let result = try await service.authorizeOngoingAccess(scope: nil, oAuthToken: nil)

        #expect(result.origin == .consent)
        #expect(!result.refreshed)
        #expect(harness.consent.presentedCount == 1)
        #expect(await harness.provider.consentCount == 1)
        #expect(try harness.storedRecord()?.token == result.oAuthToken)
        #expect(await service.state == .authorized(result.session))
        #expect(await events.take(1) == [.authorized(scope: .all)])
        #expect(await harness.provider.requestLog == [
            "POST /v1/oauth/authorize", "POST /v1/oauth/token", "POST /v1/session",
        ])
        // The refresh token lives 30 days from the consent, the access token an hour.
        #expect(result.oAuthToken.accessTokenExpiresAt == harness.clock.now().addingTimeInterval(3600))
        #expect(result.oAuthToken.refreshTokenExpiresAt == harness.clock.now().addingTimeInterval(30 * 24 * 3600))

        let accounts = try await service.accounts()
        #expect(accounts.map(\.id) == ["acc-music", "acc-fitness"])
        let files = try await service.files()
        #expect(files.map(\.id) == ["file-1", "file-2", "file-3", "file-4", "file-5"])
        let file = try await service.file(id: "file-2")
        #expect(file.info.accountID == "acc-music")
        #expect(file.content == ["genre": "ambient", "plays": 17])
    }

    @Test("Restore with a valid token: no refresh, no consent, the same token back")
    func restoreWithValidToken() async throws {
        let harness = try await OngoingAccessHarness()
        let token = try await harness.consentOnce()
        harness.clock.advance(by: 600)
        let relaunched = await harness.service()
        var events = EventTape(relaunched.events())
        let result = try await relaunched.authorizeOngoingAccess(scope: nil, oAuthToken: token)

        #expect(result.origin == .restored)
        #expect(!result.refreshed)
        #expect(result.oAuthToken == token)
        #expect(await harness.provider.refreshCount == 0)
        #expect(harness.consent.presentedCount == 1)
        #expect(await events.take(1) == [.restored(refreshed: false)])
        #expect(try await relaunched.files().count == 5)
    }

    @Test("Restore with an expired access token: refreshed, the new token returned and stored, refresh expiry unmoved")
    func restoreWithExpiredAccessToken() async throws {
        let harness = try await OngoingAccessHarness()
        let token = try await harness.consentOnce()
        harness.clock.advance(by: 3600)
        let relaunched = await harness.service()
        var events = EventTape(relaunched.events())
        let result = try await relaunched.authorizeOngoingAccess(scope: nil, oAuthToken: token)

        #expect(result.origin == .restored)
        #expect(result.refreshed)
        #expect(result.oAuthToken.accessToken != token.accessToken)
        #expect(result.oAuthToken.accessTokenExpiresAt == harness.clock.now().addingTimeInterval(3600))
        #expect(result.oAuthToken.refreshTokenExpiresAt == token.refreshTokenExpiresAt)
        #expect(try harness.storedRecord()?.token == result.oAuthToken)
        #expect(await harness.provider.refreshCount == 1)
        #expect(harness.consent.presentedCount == 1)
        #expect(await events.take(2) == [
            .refreshed(accessTokenExpiresAt: result.oAuthToken.accessTokenExpiresAt), .restored(refreshed: true),
        ])
        #expect(try await relaunched.accounts().count == 2)
    }

    @Test("Refreshing daily never extends the refresh token: on day 30 the user consents again")
    func refreshDoesNotExtendRefreshToken() async throws {
        let harness = try await OngoingAccessHarness()
        let first = try await harness.consentOnce()
        var token = first
        for _ in 1..<30 {
            harness.clock.advance(by: 24 * 3600)
            token = try await harness.service().authorizeOngoingAccess(oAuthToken: token).oAuthToken
            #expect(token.refreshTokenExpiresAt == first.refreshTokenExpiresAt)
        }
        #expect(await harness.provider.refreshCount == 29)
        harness.clock.advance(by: 24 * 3600)
        let again = try await harness.service().authorizeOngoingAccess(oAuthToken: token)
        #expect(again.origin == .consent)
        #expect(harness.consent.presentedCount == 2)
        #expect(again.oAuthToken.refreshTokenExpiresAt > first.refreshTokenExpiresAt)
    }

    @Test("Restore with an expired refresh token and auto-recovery on: the user consents again")
    func expiredRefreshTokenReconsents() async throws {
        let harness = try await OngoingAccessHarness()
        let token = try await harness.consentOnce()
        harness.clock.advance(by: 31 * 24 * 3600)
        let relaunched = await harness.service()
        var events = EventTape(relaunched.events())
        let result = try await relaunched.authorizeOngoingAccess(scope: nil, oAuthToken: token)

        #expect(result.origin == .consent)
        #expect(harness.consent.presentedCount == 2)
        #expect(await harness.provider.refreshCount == 0)
        #expect(try harness.storedRecord()?.token == result.oAuthToken)
        #expect(await events.take(2) == [.reconsentNeeded, .authorized(scope: .all)])
    }

    @Test("Restore with an expired refresh token and auto-recovery off: oAuthTokenExpired, nothing stored, no consent")
    func expiredRefreshTokenWithoutAutoRecover() async throws {
        let harness = try await OngoingAccessHarness()
        let token = try await harness.consentOnce()
        let before = try harness.storedRecord()
        harness.clock.advance(by: 31 * 24 * 3600)
        let relaunched = await harness.service(autoRecover: false)
        var events = EventTape(relaunched.events())
        await #expect(throws: OngoingAccessError.oAuthTokenExpired) {
            try await relaunched.authorizeOngoingAccess(scope: nil, oAuthToken: token)
        }
        #expect(await relaunched.state == .expired)
        #expect(harness.consent.presentedCount == 1)
        #expect(try harness.storedRecord() == before)
        #expect(await events.take(1) == [.expired])
    }

    @Test("A refresh token the provider refuses (its clock says expired) is handled as expired")
    func providerRefusesRefreshToken() async throws {
        let harness = try await OngoingAccessHarness()
        var token = try await harness.consentOnce()
        // The app's copy claims a later expiry than the provider's grant: only the provider's answer can tell.
        token.refreshTokenExpiresAt = token.refreshTokenExpiresAt.addingTimeInterval(7 * 24 * 3600)
        harness.clock.advance(by: 31 * 24 * 3600)
        await #expect(throws: OngoingAccessError.oAuthTokenExpired) {
            try await harness.service(autoRecover: false).authorizeOngoingAccess(oAuthToken: token)
        }
        let recovered = try await harness.service().authorizeOngoingAccess(oAuthToken: token)
        #expect(recovered.origin == .consent)
    }

    @Test("A refused consent is a typed error; nothing is stored")
    func refusedConsent() async throws {
        let harness = try await OngoingAccessHarness(decisions: [.refuse])
        let service = await harness.service()
        await #expect(throws: OngoingAccessError.consentRefused) {
            try await service.authorizeOngoingAccess(scope: nil, oAuthToken: nil)
        }
        #expect(try harness.storedRecord() == nil)
        #expect(await service.state == .idle)
        await #expect(throws: OngoingAccessError.notAuthorized) { try await service.accounts() }
    }

    @Test("A consent redirect answering an earlier request is refused; the provider will not consent to a used code")
    func consentCodeIsSingleUse() async throws {
        let harness = try await OngoingAccessHarness()
        let replaying = ReplayingConsent(provider: harness.provider)
        var configuration = await harness.provider.appConfiguration(appKeyID: OngoingAccessHarness.appKeyID)
        configuration.autoRecoverExpiredCredentials = true
        let service = OngoingAccessService(configuration: configuration, dependencies: OngoingAccessDependencies(
            appPrivateKey: harness.appKey, consent: replaying, transport: harness.provider.transport, clock: harness.clock))
        _ = try await service.authorizeOngoingAccess()
        // The replayed redirect carries the first request's state: the client refuses it before any exchange.
        await #expect(throws: OngoingAccessError.consentFailed(.stateMismatch)) {
            try await service.authorizeOngoingAccess()
        }
        #expect(await harness.provider.tokenExchangeCount == 1)
        let used = try #require(replaying.first.withLock { $0 })
        let again = try await harness.provider.acceptConsent(used)
        let query = URLComponents(url: again, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(query.contains(URLQueryItem(name: "error", value: "invalid_request")))
        #expect(!query.contains { $0.name == "code" })
    }
}

/// Accepts the first consent URL, then presents that same (used) URL every later time.
private final class ReplayingConsent: ConsentPresenter {
    let provider: OngoingAccessProvider
    let first = LockedValue<URL?>(nil)

    init(provider: OngoingAccessProvider) {
        self.provider = provider
    }

    func presentConsent(at url: URL, redirectURI: URL) async throws -> URL {
        let replayed = first.withLock { saved -> URL in
            if let saved { return saved }
            saved = url
            return url
        }
        return try await provider.acceptConsent(replayed)
    }
}
