import Foundation

/// Where the service is in its life: whether it started, who waits for it to settle, and the work a launch left
/// running (a renewal that outlived the launch budget, the launch's Check Registration), owned until it lands.
struct ServiceLifecycle {
    /// Whether ``RegStateService/start()`` ran once (the journal opened).
    var started = false
    /// Callers of ``RegStateService/settled()`` waiting for a settled state.
    var settleWaiters: [CheckedContinuation<RegState, Never>] = []
    /// A launch renewal that outlived the launch budget, still running.
    var lateLaunchRenewal: Task<Void, Never>?
    /// The expired session the launch's inspection read, which its renewal renews: the session a launch that
    /// settles before that renewal lands goes on offline with, when the store cannot be read again then.
    var launchInspected: StoredSession?
    var launchCheck: Task<Result<RegistrationCheck, RegStateServiceError>, Never>?
}
