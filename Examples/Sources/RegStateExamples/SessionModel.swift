import Foundation
import Observation
import RegState

/// The app's session as an `@Observable` model a SwiftUI view binds to (`@State var model = SessionModel(...)`):
/// `screen` changes with every lettered event. The tasks it starts end with it: they hold it weakly and are
/// cancelled when it is released (or on ``stop()``).
@Observable
@MainActor
public final class SessionModel {
    /// What the root view shows.
    public private(set) var screen: Screen = .launching
    @ObservationIgnored private let service: RegStateService
    @ObservationIgnored private let tasks = TaskBag()

    /// A model over `service` (for example `RegStateService(configuration:dependencies: .onDisk(at:))`).
    public init(service: RegStateService) {
        self.service = service
    }

    /// Starts listening, then starts the service (reads the store, renews if needed).
    public func start() {
        let service = self.service
        tasks.add(Task { [weak self] in
            let events = await service.events()          // the latest event first, then every later one
            await service.start()
            for await event in events {
                guard let self else { return }
                self.screen = nextScreen(after: event, current: self.screen)
            }
        })
    }

    /// Stops listening; a released model stops by itself.
    public func stop() { tasks.cancelAll() }

    /// Social registration: `open` shows the URL (ASWebAuthenticationSession on Apple platforms) and returns the
    /// redirect.
    public func signInWithSocial(open: (URL) async throws -> URL) async throws {
        let url = try await service.beginSocialRegistration()
        let redirect = try await open(url)
        _ = try await service.completeSocialRegistration(callback: redirect)
    }

    /// Confirm on **G**.
    public func confirm() async throws { _ = try await service.confirmRegistration() }

    /// Retry on **G**: back to **D**.
    public func retry() async throws { try await service.retryRegistration() }
}

/// Tasks cancelled together, at the latest when the bag is released (so with the model that owns it).
final class TaskBag: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var tasks: [Task<Void, Never>] = []

    func add(_ task: Task<Void, Never>) {
        lock.lock(); defer { lock.unlock() }
        tasks.append(task)
    }

    func cancelAll() {
        lock.lock(); let running = tasks; tasks = []; lock.unlock()
        for task in running { task.cancel() }
    }

    deinit { cancelAll() }
}
