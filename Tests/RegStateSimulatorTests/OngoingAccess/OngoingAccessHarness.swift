import Foundation
import RegState
import RegStateOngoingAccess
import RegStateTesting
import RegStateSimulator
import Testing

/// One app and one ongoing-access provider on a manual clock, sharing an in-memory store.
struct OngoingAccessHarness {
    /// One app key and one provider key for every test, so the suites do not generate dozens of keys.
    static let appKey: RSAPrivateKey? = try? SystemCrypto().generateRSAPrivateKey(bits: 2048)
    static let providerKey: RSAPrivateKey? = try? SystemCrypto().generateRSAPrivateKey(bits: 2048)
    static let appKeyID = "app-key-1"

    let clock: ManualClock
    let provider: OngoingAccessProvider
    let consent: ScriptedConsent
    let store: InMemorySecureStore
    let appKey: RSAPrivateKey

    /// A provider that knows the app's key; the clock starts on 1 July 2026.
    init(decisions: [ScriptedConsent.Decision] = [.accept], persistence: URL? = nil) async throws {
        clock = ManualClock(start: Date(timeIntervalSince1970: 1_782_864_000))
        appKey = try #require(Self.appKey)
        var configuration = OngoingAccessProviderConfiguration()
        configuration.signingKey = Self.providerKey
        configuration.appKeys = [Self.appKeyID: try SystemCrypto().publicKey(of: appKey)]
        provider = try OngoingAccessProvider(configuration: configuration, clock: clock, persistence: persistence)
        consent = ScriptedConsent(provider: provider, decisions: decisions)
        store = InMemorySecureStore()
    }

    /// A fresh service (as after an app launch) on the shared store.
    func service(autoRecover: Bool = true) async -> OngoingAccessService {
        var configuration = await provider.appConfiguration(appKeyID: Self.appKeyID)
        configuration.autoRecoverExpiredCredentials = autoRecover
        return OngoingAccessService(configuration: configuration, dependencies: OngoingAccessDependencies(
            appPrivateKey: appKey, consent: consent, tokenStore: OngoingAccessTokenStore(store: store),
            transport: provider.transport, clock: clock))
    }

    /// The record in the store.
    func storedRecord() throws -> OngoingAccessTokenStore.Record? {
        try OngoingAccessTokenStore(store: store).load()
    }

    /// Authorizes with consent on a fresh service and returns the token.
    @discardableResult
    func consentOnce(scope: OngoingAccessScope? = nil) async throws -> OAuthToken {
        try await service().authorizeOngoingAccess(scope: scope, oAuthToken: nil).oAuthToken
    }
}
