import Foundation
@testable import RegState

/// A journal with every shape of every event and state, as values: ``JournalFixtureTests`` pins the lines the engine
/// wrote for them on 4f7e27d (with `JSONEncoder`), which every later version must read back equal and write again
/// byte for byte (but for two failures since made generic: ``JournalFixtureTests/renamedTags``).
enum JournalSamples {
    static let awkward = "A \"quoted\" \\ back/slash\n\t\r\u{08}\u{0C}\u{01}\u{1F} é 😀 bob@example.com"
    static let full = Profile(subject: "user-1", issuer: "https://idp.example/a", email: "alice@example.com",
                              emailVerified: true, name: "Alice", picture: "https://p.example/a.png")
    static let minimal = Profile(subject: awkward, issuer: awkward)
    static let dates = [Date(timeIntervalSince1970: 1_795_539_717.7914052), Date(timeIntervalSince1970: 1_800_000_000),
                        Date(timeIntervalSince1970: 0.1), Date(timeIntervalSince1970: RecordedTime.latest)]
    static let stored = StoredSession(registrationType: .social, expiresAt: dates[0], profile: full)
    static let refreshed = StoredSession(registrationType: .passwordless, expiresAt: dates[1],
                                         refreshExpiresAt: dates[3], profile: minimal)
    static let host = StoredSession(registrationType: .hostSSO, expiresAt: dates[2], profile: full)

    static let dpopErrors: [DPoPError] = [
        .keyRecordUnreadable(reason: "torn"), .keyRecordWrongCurve(curve: "P-384"), .cryptoFailed(reason: "sign"),
        .storeFailed(reason: "io"), .invalidTargetURL, .thumbprintUnavailable(reason: "kty"), .invalidNonce(reason: "long"),
        .notOffered, .unboundTokenIssued, .boundTokenWithoutProof,
    ]

    static let registrationFailures: [RegistrationFailure] = [
        .discoveryFailed("d"), .transient(.noInternet, detail: "offline"), .transient(.ssoUnspecifiedIssue, detail: awkward),
        .providerUnreachable("p"), .pushedAuthorizationRefused(error: "invalid_request", description: "why"),
        .pushedAuthorizationRefused(error: "e", description: nil), .pushedAuthorizationUnavailable("none"),
        .stateMismatch, .noPendingLogin, .loginAlreadyInProgress, .pendingLoginExpired, .pendingLoginSuperseded,
        .malformedCallback("m"), .issuerMismatchInCallback, .authorizationDenied(error: "access_denied", description: "no"),
        .authorizationDenied(error: "e", description: nil), .tokenRequestFailed(error: "invalid_grant", description: "t"),
        .tokenRequestFailed(error: "e", description: nil), .malformedResponse("r"), .invalidIDToken("aud"),
        .authTimeMissing, .signInTooOld(authenticatedAt: dates[0]), .acrNotAccepted("urn:a"), .acrNotAccepted(nil),
        .anotherUser, .wrongCode, .codeExpired, .codeReused, .codeSuperseded, .tooManyAttempts,
        .tooManyRefusedRedirects, .rateLimited(retryAfter: 30), .rateLimited(retryAfter: nil), .grantNotOffered(.passwordless),
        .invalidEmail, .codeExpired, .grantNotOffered(.deviceAuthorization), .tooManyRegisteredDevices, .maxSecurityTokens,
        .backendFailed("500"), .storage("disk"), .unsupported("web"),
    ] + dpopErrors.map { .dpop($0) }

    static let renewalFailures: [RenewalFailure] = [
        .transient(.noInternet), .transient(.ssoUnspecifiedIssue), .denied(reason: "invalid_grant"), .credentialsExhausted,
        .noRefreshToken, .storage("io"), .forcedLogout, .awaitingHost, .dpopKeyUnavailable(reason: "missing"),
        .invalidRefreshedIDToken(reason: "sub"), .interruptedRenewalRefused(reason: "invalid_grant"),
    ]

    static var events: [MachineEvent] {
        var events: [MachineEvent] = [.launched(isNative: true), .launched(isNative: false), .nonNativeTokenInstalled]
        events += [StoredTokenStatus.nothing, .corrupt(reason: awkward), .unreadable(reason: "I/O"), .valid(stored),
                   .expired(refreshed), .boundElsewhere(.issuer), .boundElsewhere(.client), .boundElsewhere(.unproven)]
            .map { .storedTokensInspected($0) }
        events += [RenewalTrigger.expired, .backendUnauthorized, .securityTokenExpired, .host].map { .renewalRequested($0) }
        events += [.renewalSucceeded(stored), .renewalSucceeded(refreshed)]
        events += renewalFailures.map { .renewalFailed($0, stored: nil) } + [.renewalFailed(.storage("x"), stored: refreshed)]
        events += [RegistrationMethod.social, .passwordless(email: "alice@example.com"), .device]
            .map { .registrationRequested($0) }
        events += [.authorizationIssued, .credentialsSubmitted, .authenticated(host)]
        events += registrationFailures.map { .registrationFailed($0) }
        events += [.confirmationRequested, .registrationConfirmed(refreshed), .retryRequested, .logoutRequested,
                   .logoutRefused(.noInternet), .logoutRefused(.ssoUnspecifiedIssue), .loggedOut, .forcedLogout,
                   .clearStateRequested, .credentialsCleared, .hostTokenSubmitted, .hostTokenAccepted(host),
                   .hostTokenRefused(.tooManyRegisteredDevices), .hostTokenRefused(.invalidIDToken("exp")),
                   .securityTokenRenewed, .pendingLoginResumed, .clockOffsetObserved(seconds: 600, source: .dateHeader),
                   .clockOffsetObserved(seconds: -42, source: .idTokenIssueTime)]
        return events
    }

    static var entries: [JournalEntry] {
        events.enumerated().map { JournalEntry(sequence: $0 + 1, recordedAt: dates[$0 % dates.count], event: $1) }
    }

    static var states: [RegState] {
        var offline = refreshed.session(.renewed, connectivity: .offline(.ssoUnspecifiedIssue))
        offline.renewalPending = true
        return [.unsettled, .registrationRequired, .authenticating(.social),
                .authenticating(.passwordless(email: "alice@example.com")), .authenticating(.device),
                .awaitingConfirmation(full), .awaitingConfirmation(minimal), .active(Session(activation: .nonNative)),
                .active(stored.session(.stored)), .active(host.session(.registered, connectivity: .offline(.noInternet))),
                .active(offline)]
            + renewalFailures.map { .failed(.renewal($0)) } + registrationFailures.map { .failed(.registration($0)) }
    }

    static var snapshots: [JournalSnapshot] {
        states.enumerated().map { JournalSnapshot(sequence: $0 * 1_000, state: $1) }
    }
}
