import Foundation
import Testing
@testable import RegState

/// The names and reason codes RegState writes for its enums' cases: each is what the journal and the `--json` output
/// have always said, so a change to one (a renamed case, a new spelling) cannot go unnoticed.
@Suite("Case names and reason codes")
struct ReasonCodeTests {
    /// The one member name `value`'s journal form has: the case name the journal writes.
    static func journalKey(_ value: some RecordValue) throws -> String? {
        let object = value.json.objectValue
        return object?.count == 1 ? object?.keys.first : nil
    }

    @Test("every event's name and every state's case name is the key the journal writes for it")
    func namesAreJournalKeys() throws {
        for event in TransitionTable.events {
            #expect(try Self.journalKey(event) == event.name)
        }
        for state in TransitionTable.states {
            #expect(try Self.journalKey(state) == state.caseName)
        }
    }

    @Test("every registration failure's reason code, pinned")
    func registrationReasonCodes() {
        let codes: [(RegistrationFailure, String)] = [
            (.discoveryFailed("x"), "discovery_failed"), (.providerUnreachable("x"), "provider_unreachable"),
            (.transient(.noInternet, detail: "x"), "transient_no_internet"),
            (.transient(.ssoUnspecifiedIssue, detail: "x"), "transient_provider_issue"),
            (.pushedAuthorizationRefused(error: "e", description: nil), "pushed_authorization_refused"),
            (.pushedAuthorizationUnavailable("x"), "pushed_authorization_unavailable"),
            (.stateMismatch, "state_mismatch"), (.noPendingLogin, "no_pending_login"),
            (.loginAlreadyInProgress, "login_already_in_progress"), (.pendingLoginExpired, "pending_login_expired"),
            (.pendingLoginSuperseded, "pending_login_superseded"), (.malformedCallback("x"), "malformed_callback"),
            (.issuerMismatchInCallback, "issuer_mismatch_in_callback"),
            (.authorizationDenied(error: "e", description: nil), "authorization_denied"),
            (.tokenRequestFailed(error: "e", description: nil), "token_request_failed"),
            (.malformedResponse("x"), "malformed_response"), (.invalidIDToken("x"), "invalid_id_token"),
            (.wrongCode, "wrong_code"), (.codeExpired, "code_expired"), (.codeReused, "code_reused"),
            (.codeSuperseded, "code_superseded"), (.tooManyAttempts, "too_many_attempts"),
            (.tooManyRefusedRedirects, "too_many_refused_redirects"), (.rateLimited(retryAfter: 3), "rate_limited"),
            (.grantNotOffered(.passwordless), "passwordless_not_offered"), (.invalidEmail, "invalid_email"),
            (.tooManyRegisteredDevices, "too_many_registered_devices"), (.maxSecurityTokens, "max_security_tokens"),
            (.backendFailed("x"), "backend_failed"), (.storage("x"), "storage"), (.unsupported("x"), "unsupported"),
            (.dpop(.notOffered), "dpop"), (.authTimeMissing, "auth_time_missing"),
            (.signInTooOld(authenticatedAt: .distantPast), "sign_in_too_old"), (.acrNotAccepted(nil), "acr_not_accepted"),
            (.anotherUser, "another_user"), (.grantNotOffered(.authorizationCode), "authorization_code_not_offered"),
            (.grantNotOffered(.deviceAuthorization), "device_authorization_not_offered"),
        ]
        #expect(Set(codes.map(\.0.reasonCode)).count == 38, "one pin per code: every case, every grant, both transient issues")
        for (failure, code) in codes {
            #expect(failure.reasonCode == code)
        }
    }

    @Test("every renewal failure's and backend error's reason code, pinned")
    func renewalAndBackendReasonCodes() {
        let renewal: [(RenewalFailure, String)] = [
            (.transient(.noInternet), "transient_no_internet"),
            (.transient(.ssoUnspecifiedIssue), "transient_provider_issue"), (.denied(reason: "r"), "denied"),
            (.credentialsExhausted, "credentials_exhausted"), (.noRefreshToken, "no_refresh_token"),
            (.storage("x"), "storage"), (.forcedLogout, "forced_logout"), (.awaitingHost, "awaiting_host"),
            (.dpopKeyUnavailable(reason: "r"), "dpop_key_unavailable"),
            (.invalidRefreshedIDToken(reason: "r"), "invalid_refreshed_id_token"),
            (.interruptedRenewalRefused(reason: "r"), "interrupted_renewal_refused"),
        ]
        for (failure, code) in renewal {
            #expect(failure.reasonCode == code)
        }
        let backend: [(BackendError, String)] = [
            (.transport(.timedOut), "transport"), (.unauthorized, "unauthorized"), (.forcedLogout, "forced_logout"),
            (.tooManyRegisteredDevices, "too_many_registered_devices"), (.maxSecurityTokens, "max_security_tokens"),
            (.invalidIDToken, "invalid_id_token"), (.unexpectedStatus(500, code: nil), "unexpected_status"),
            (.unexpectedStatus(404, code: "unknown_device"), "unknown_device"),
            (.malformedResponse("x"), "malformed_response"), (.insecureURL, "insecure_url"),
            (.invalidPathSegment(.empty), "invalid_id"),
        ]
        for (error, code) in backend {
            #expect(error.reasonCode == code)
        }
    }

    @Test("a refreshed ID token's failed check is journaled by its case name, never its values, for every case")
    func idTokenCheckNames() {
        let every: [IDTokenError] = [
            .malformed("x"), .invalidJWT(.tooLarge(limit: 1)), .unsupportedAlgorithm("none"), .unknownKeyID("k"),
            .keyDoesNotFitAlgorithm("ES256"), .invalidSignature, .issuerMismatch(expected: "a", found: "b"),
            .audienceMismatch, .untrustedAudience, .authorizedPartyMismatch, .expired(at: .distantPast), .issuedInFuture,
            .notYetValid, .invalidTimeClaim("iat"), .invalidSubject, .tooOld, .nonceMismatch, .refreshedIdentityMismatch,
            .authTimeMissing, .authenticationTooOld(authenticatedAt: .distantPast), .acrNotAccepted(nil),
            .unsignedTokensAdvertised,
        ]
        for error in every {
            // The test reads the case's own name by reflection; the engine's written-out name must equal it.
            let caseName = Mirror(reflecting: error).children.first?.label ?? String(describing: error)
            #expect(error.checkName == caseName)
        }
        #expect(Set(every.map(\.checkName)).count == every.count)
    }
}
