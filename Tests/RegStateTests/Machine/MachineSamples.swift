import Foundation
@testable import RegState

/// Representative values of every state and event, shared by the machine tests and the diagram test.
enum MachineSamples {
    static let at = Date(timeIntervalSince1970: 1_800_000_000)
    static let profile = Profile(subject: "user-1", issuer: "https://idp.example", email: "alice@example.com",
                                 emailVerified: true, name: "Alice")
    static let stored = StoredSession(registrationType: .social, expiresAt: at.addingTimeInterval(3600),
                                      hasRefreshToken: true, profile: profile)
    static let storedSession = stored.session(.stored)
    static let offlineSession = stored.session(.stored, connectivity: .offline(.noInternet))
    static let nonNativeSession = Session(activation: .nonNative)

    static let states: [RegState] = [
        .unsettled,
        .registrationRequired,
        .authenticating(.social),
        .authenticating(.passwordless(email: "alice@example.com")),
        .awaitingConfirmation(profile),
        .active(storedSession),
        .active(offlineSession),
        .active(nonNativeSession),
        .failed(.registration(.stateMismatch)),
        .failed(.renewal(.denied(reason: "invalid_grant"))),
    ]

    static let events: [MachineEvent] = [
        .launched(isNative: true),
        .launched(isNative: false),
        .nonNativeTokenInstalled,
        .storedTokensInspected(.nothing),
        .storedTokensInspected(.unreadable(reason: "corrupt")),
        .storedTokensInspected(.valid(stored)),
        .storedTokensInspected(.expired(stored)),
        .renewalRequested(.expired),
        .renewalSucceeded(stored),
        .renewalFailed(.transient(.noInternet), stored: stored),
        .renewalFailed(.denied(reason: "invalid_grant"), stored: stored),
        .registrationRequested(.social),
        .registrationRequested(.passwordless(email: "alice@example.com")),
        .authorizationIssued,
        .credentialsSubmitted,
        .authenticated(stored),
        .registrationFailed(.wrongCode),
        .confirmationRequested,
        .registrationConfirmed(stored),
        .retryRequested,
        .logoutRequested,
        .logoutRefused(.noInternet),
        .loggedOut,
        .forcedLogout,
        .clearStateRequested,
        .credentialsCleared,
    ]
}

extension RegState {
    /// A short label distinguishing the sample states.
    var sampleLabel: String {
        switch self {
        case .authenticating(.social): "authenticating(social)"
        case .authenticating(.passwordless): "authenticating(passwordless)"
        case .active(let session) where session.connectivity.isOffline: "active(\(session.activation.rawValue),offline)"
        case .active(let session): "active(\(session.activation.rawValue))"
        case .failed(let error): "failed(\(error.letter))"
        default: caseName
        }
    }
}
