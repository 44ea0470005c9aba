import Foundation
import RegState

/// Drives an app's root screen from RegState's lettered events.
@MainActor
final class SessionModel {
    enum Screen { case launching, register, confirm(Profile), home(Session), problem(String) }

    private(set) var screen: Screen = .launching
    private let service: RegStateService
    private var listening: Task<Void, Never>?

    /// - Parameters: the provider's issuer, this app's redirect URI (`com.example.app:/callback`), the backend.
    init(storeDirectory: URL, issuer: URL, redirectURI: URL, backend: URL?) throws {
        let configuration = RegStateConfiguration(
            oidc: OIDCConfiguration(issuer: issuer, clientID: "my-app", redirectURI: redirectURI),
            backendURL: backend)
        service = RegStateService(configuration: configuration, dependencies: try .onDisk(at: storeDirectory))
    }

    func start() {
        listening = Task { [service] in
            let events = await service.events()          // the latest event first, then every later one
            Task { await service.start() }
            for await event in events {
                self.show(event)
            }
        }
    }

    private func show(_ event: RegStateEvent) {
        switch event {
        case .registrationRequired: screen = .register                       // D
        case .awaitingConfirmation(let profile): screen = .confirm(profile)   // G
        case .sessionActive(let session): screen = .home(session)             // A, B, C, H (maybe offline)
        case .error(let error) where error.isRecoverable: break              // E offline: keep the home screen
        case .error(let error): screen = .problem(error.localizedDescription) // E final, F
        }
    }

    func signInWithSocial(open: (URL) async -> URL) async throws {
        let url = try await service.beginSocialRegistration()
        let redirect = await open(url)          // ASWebAuthenticationSession on Apple platforms
        try await service.completeSocialRegistration(callback: redirect)
    }

    func confirm() async throws { try await service.confirmRegistration() }
    func retry() async throws { try await service.retryRegistration() }
}
