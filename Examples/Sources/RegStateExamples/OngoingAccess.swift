import Foundation
import RegState
import RegStateOngoingAccess

/// Seed 003's ongoing access in an app: consent once, keep the token, restore later without the user.
///
/// The app's RSA key comes from its developer portal as PEM; the provider's public key is pinned as a JWK set.
/// `OngoingAccessTokenStore` keeps the token in the app's `SecureStore` (`KeychainSecureStore` on Apple
/// platforms, `FileSecureStore` elsewhere), in its own record.
final class ListeningHistory {
    private let access: OngoingAccessService
    private let tokens: OngoingAccessTokenStore
    private var listening: Task<Void, Never>?

    /// - Parameters: the provider (`https://ongoing.example.com`), this app's redirect URI
    ///   (`com.example.app:/ongoing-callback`), the app's private key (PEM), the provider's pinned keys and its key-set
    ///   URL, the consent screen and the store.
    init(provider: URL, redirectURI: URL, appKeyPEM: String, providerKeys: JSONWebKeySet, providerKeySetURL: URL,
         consent: any ConsentPresenter, store: any SecureStore) throws {
        tokens = OngoingAccessTokenStore(store: store)
        let configuration = OngoingAccessConfiguration(
            providerURL: provider, appID: "my-app", contractID: "listening-history", redirectURI: redirectURI,
            appKeyID: "my-app-key-1", providerKeys: providerKeys, allowedKeySetURLs: [providerKeySetURL],
            autoRecoverExpiredCredentials: true)
        access = OngoingAccessService(configuration: configuration, dependencies: OngoingAccessDependencies(
            appPrivateKey: try RSAPrivateKey(pem: appKeyPEM), consent: consent, tokenStore: tokens))
        listening = Task { [access] in
            for await event in access.events() {
                switch event {
                case .reconsentNeeded: print("Your data link expired; please confirm sharing again.")
                case .expired: print("Your data link expired.")
                case .refreshed, .restored, .authorized, .failed: break
                }
            }
        }
    }

    deinit { listening?.cancel() }

    /// The genres of the last six months: restores from the stored token (the user stays in the app) or, the first
    /// time, asks for consent. The token the call hands back may be new — the token store already holds it.
    func recentGenres(now: Date = Date()) async throws(OngoingAccessError) -> [String] {
        let stored = try await access.storedRecord()?.token
        let scope = OngoingAccessScope(from: now.addingTimeInterval(-182 * 24 * 3600), to: now)
        _ = try await access.authorizeOngoingAccess(scope: scope, oAuthToken: stored)
        var genres: [String] = []
        for file in try await access.files() {
            if let genre = try await access.file(id: file.id).content["genre"]?.stringValue { genres.append(genre) }
        }
        return genres
    }
}
