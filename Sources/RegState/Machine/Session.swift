import Foundation

/// A usable session: what the host app needs to treat its user as signed in. It carries no token: tokens stay in the
/// secure store and ``RegStateService/validAccessToken()`` hands them out.
public struct Session: Sendable, Equatable {
    /// How the session became active (A, B, C or H).
    public var activation: Activation
    /// Online, or offline after a transient renewal failure.
    public var connectivity: Connectivity
    /// How the user registered; `nil` for the non-native token (A).
    public var registrationType: RegistrationType?
    /// When the access token expires; `nil` when it does not (the non-native token).
    public var expiresAt: Date?
    /// The confirmed profile; `nil` for the non-native token.
    public var profile: Profile?
    /// Whether the access token needs a renewal that has not succeeded yet (a recoverable **E**): the session serves
    /// offline data, but its token is not presented as valid (<doc:OfflineRules>).
    public var renewalPending = false

    /// Creates a session description.
    public init(activation: Activation, connectivity: Connectivity = .online, registrationType: RegistrationType? = nil,
                expiresAt: Date? = nil, profile: Profile? = nil) {
        self.activation = activation
        self.connectivity = connectivity
        self.registrationType = registrationType
        self.expiresAt = expiresAt
        self.profile = profile
    }
}

extension Session {
    /// Whether the host app renews this session (host mode): it was signed in by the host's SSO.
    public var isHostDriven: Bool { registrationType == .hostSSO }
}

/// What the token service knows about stored credentials, without the tokens: the non-secret facts events carry.
package struct StoredSession: Sendable, Equatable {
    package var registrationType: RegistrationType
    package var expiresAt: Date
    /// When the refresh token expires, when the provider said so; `nil` when unknown or never.
    package var refreshExpiresAt: Date?
    /// The profile decoded from the ID token.
    package var profile: Profile

    package init(registrationType: RegistrationType, expiresAt: Date, refreshExpiresAt: Date? = nil, profile: Profile) {
        self.registrationType = registrationType
        self.expiresAt = expiresAt
        self.refreshExpiresAt = refreshExpiresAt
        self.profile = profile
    }

    /// A session with this data, activated by `activation`.
    package func session(_ activation: Activation, connectivity: Connectivity = .online) -> Session {
        Session(activation: activation, connectivity: connectivity, registrationType: registrationType,
                expiresAt: expiresAt, profile: profile)
    }
}
