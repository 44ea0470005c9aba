import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RegState
import RegStateURLSession

/// An app that already has its own login (Auth0.swift, okta, AppAuth…) and uses RegState in host mode:
/// the app hands in the ID token after its login, RegState exchanges it for the backend security token, and tells
/// the app once when that token expired. The flow is drawn in `Diagrams/host-driven-renewal.md`.
protocol HostSSO: Sendable {
    /// The app's own sign-in (or silent renewal) with its SSO; the ID token it got.
    func freshIDToken() async throws -> String
}

/// Why the app's SSO could not renew.
enum HostSSOFailure: Error {
    /// No connection, or the SSO did not answer usefully: renew later.
    case transient(TransientIssue)
    /// The SSO explicitly refused: the user must sign in again.
    case denied
}

/// Wires RegState to the host's SSO: pushes ID tokens in and answers the expiry notice.
actor HostDrivenSession {
    let service: RegStateService
    let sso: any HostSSO
    private var listener: Task<Void, Never>?

    /// A RegState service in host mode over the platform's default store.
    init(sso: any HostSSO, issuer: URL, clientID: String, backendURL: URL, directory: URL) throws {
        var configuration = RegStateConfiguration(
            oidc: OIDCConfiguration(issuer: issuer, clientID: clientID,
                                    redirectURI: URL(string: "com.example.app:/callback") ?? issuer),
            backendURL: backendURL)
        configuration.sessionSource = .host
        service = RegStateService(configuration: configuration,
                                  dependencies: try .standard(at: directory, keychainService: "com.example.app"))
        self.sso = sso
    }

    /// At launch: settle, answer every expiry notice, and (as the seed recommends) push a fresh ID token when a
    /// session is active.
    func start() async {
        let events = await service.events()
        listener = Task { [service, sso] in
            for await event in events where event == .error(.renewal(.awaitingHost)) {
                await Self.renew(service, with: sso)
            }
        }
        if await service.start().session != nil { await Self.renew(service, with: sso) }
    }

    /// After the user signed in with the app's own login screen.
    func signedIn(idToken: String) async throws {
        try await service.updateToken(idToken: idToken)
    }

    /// The one answer to an expiry notice: a new ID token, a transient issue (the session stays, offline), or a
    /// denial (the session ends, storage cleared).
    private static func renew(_ service: RegStateService, with sso: any HostSSO) async {
        do {
            try await service.updateToken(idToken: try await sso.freshIDToken())
        } catch let failure as HostSSOFailure {
            switch failure {
            case .transient(let issue): try? await service.notifyTokenRenewalTransientIssue(issue)
            case .denied: _ = try? await service.logout(.ssoDenied)
            }
        } catch {
            try? await service.notifyTokenRenewalTransientIssue(.ssoUnspecifiedIssue)
        }
    }

    /// The app's own URLSession: every request under the backend URL carries the security token; a 401 holds the
    /// other requests until the answer above, then each is retried once.
    func apiSession(backendURL: URL) -> URLSession {
        URLSession(configuration: RegStateURLProtocol.configure(.default, service: service,
                                                                policy: .backend(backendURL)))
    }

    /// A request the app builds itself, authorized by the same policy.
    func authorizedRequest(to url: URL, backendURL: URL) async throws -> URLRequest {
        var request = URLRequest(url: url)
        try await service.authorize(&request, policy: .backend(backendURL))
        return request
    }

    /// The user logs out: only online; offline, nothing changes and the error says so.
    func logOut() async throws {
        try await service.logout(.userRequested)
    }
}
