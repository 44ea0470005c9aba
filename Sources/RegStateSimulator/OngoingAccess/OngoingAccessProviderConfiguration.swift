import Foundation
import RegState
import RegStateOngoingAccess

/// The knobs of an ``OngoingAccessProvider``: where it lives, which app it knows, token lifetimes and the data it
/// serves.
public struct OngoingAccessProviderConfiguration: Sendable {
    /// A file the provider serves: its entry and content.
    public struct File: Sendable, Equatable, Codable {
        /// The entry (identifier, account, date).
        public var info: OngoingAccessFileInfo
        /// The content.
        public var content: JSONValue

        /// Creates a file.
        public init(info: OngoingAccessFileInfo, content: JSONValue) {
            self.info = info
            self.content = content
        }
    }

    /// The provider's base URL; endpoints live under `v1/`.
    public var baseURL: URL
    /// The registered app's identifier.
    public var appID: String
    /// The contract the app holds.
    public var contractID: String
    /// The redirect URIs registered for the app, exactly as requests must name them.
    public var redirectURIs: [String]
    /// The app's public keys by `kid`: requests must be PS512-signed by one of them.
    public var appKeys: [String: RSAPublicKey]
    /// Seconds an access token lives.
    public var accessTokenLifetime: TimeInterval
    /// Seconds a refresh token lives from the consent; refreshing never extends it.
    public var refreshTokenLifetime: TimeInterval
    /// Seconds a pre-authorization code lives.
    public var preAuthorizationLifetime: TimeInterval
    /// Seconds an authorization code lives.
    public var authorizationCodeLifetime: TimeInterval
    /// Seconds a data session lives.
    public var sessionLifetime: TimeInterval
    /// How far a request's timestamp may be from the provider's clock, in seconds.
    public var requestLeeway: TimeInterval
    /// The algorithm answers are signed with (PS512 or RS256).
    public var signingAlgorithm: SignatureAlgorithm
    /// The provider's signing key; `nil` generates one when the world is new.
    public var signingKey: RSAPrivateKey?
    /// The accounts served.
    public var accounts: [OngoingAccessAccount]
    /// The files served (filtered by each session's scope).
    public var files: [File]

    /// Creates a configuration; every knob has a default.
    public init(
        baseURL: URL = SimulatorConfiguration.literalURL("https://ongoing.regstate.sim"),
        appID: String = "regstate-ongoing-app", contractID: String = "contract-listening-history",
        redirectURIs: [String] = ["com.example.app:/ongoing-callback"], appKeys: [String: RSAPublicKey] = [:],
        accessTokenLifetime: TimeInterval = 3600, refreshTokenLifetime: TimeInterval = 30 * 24 * 3600,
        preAuthorizationLifetime: TimeInterval = 600, authorizationCodeLifetime: TimeInterval = 600,
        sessionLifetime: TimeInterval = 900, requestLeeway: TimeInterval = 300,
        signingAlgorithm: SignatureAlgorithm = .ps512, signingKey: RSAPrivateKey? = nil,
        accounts: [OngoingAccessAccount] = Self.sampleAccounts, files: [File] = Self.sampleFiles
    ) {
        self.baseURL = baseURL
        self.appID = appID
        self.contractID = contractID
        self.redirectURIs = redirectURIs
        self.appKeys = appKeys
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.preAuthorizationLifetime = preAuthorizationLifetime
        self.authorizationCodeLifetime = authorizationCodeLifetime
        self.sessionLifetime = sessionLifetime
        self.requestLeeway = requestLeeway
        self.signingAlgorithm = signingAlgorithm
        self.signingKey = signingKey
        self.accounts = accounts
        self.files = files
    }

    /// The URL of the provider's key set (the only `jku` it ever names).
    public var keySetURL: URL { baseURL.appendingPathComponent("v1/jwks") }

    /// Two accounts: a music service and a fitness tracker.
    public static let sampleAccounts = [
        OngoingAccessAccount(id: "acc-music", service: "spotify", name: "Spotify"),
        OngoingAccessAccount(id: "acc-fitness", service: "fitbit", name: "Fitbit"),
    ]

    /// Five files across 2026: listening history in January, March and June, step counts in April and September.
    public static let sampleFiles: [File] = [
        (1, "acc-music", "2026-01-15", ["genre": "jazz", "plays": 42] as JSONValue),
        (2, "acc-music", "2026-03-10", ["genre": "ambient", "plays": 17]),
        (3, "acc-fitness", "2026-04-02", ["steps": 9120]),
        (4, "acc-music", "2026-06-21", ["genre": "folk", "plays": 30]),
        (5, "acc-fitness", "2026-09-30", ["steps": 11_004]),
    ].map { number, account, day, content in
        let date = ISO8601DateFormatter().date(from: day + "T12:00:00Z") ?? Date(timeIntervalSince1970: 0)
        return File(info: OngoingAccessFileInfo(id: "file-\(number)", accountID: account, date: date), content: content)
    }
}
