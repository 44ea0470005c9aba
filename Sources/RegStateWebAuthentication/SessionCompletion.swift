#if (canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))) || REGSTATE_APPLE_TYPECHECK
import Foundation

/// One sign-in's way back to its caller: resumes the caller once (the session's completion, a refusal to start, or
/// the task's cancellation, whichever comes first) and closes the sheet when the task is cancelled.
final class SessionCompletion: @unchecked Sendable {
    // @unchecked: every stored property is read and written under `lock` only.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Result<URL, WebAuthenticationError>, Never>?
    private var closeSheet: (@MainActor () -> Void)?
    private var cancelled = false

    /// Keeps the caller's continuation until the sign-in ends; `false` (the caller resumed, cancelled) when the task
    /// was cancelled before, so that no sheet opens.
    func begin(_ continuation: CheckedContinuation<Result<URL, WebAuthenticationError>, Never>) -> Bool {
        let resumeNow = lock.withLock { () -> Bool in
            if cancelled { return true }
            self.continuation = continuation
            return false
        }
        if resumeNow { continuation.resume(returning: .failure(.cancelled)) }
        return !resumeNow
    }

    /// Resumes the caller with `outcome`, unless it was resumed already.
    func finish(_ outcome: Result<URL, WebAuthenticationError>) {
        let waiting = lock.withLock { () -> CheckedContinuation<Result<URL, WebAuthenticationError>, Never>? in
            defer { continuation = nil; closeSheet = nil }
            return continuation
        }
        waiting?.resume(returning: outcome)
    }

    /// Remembers how to close the sheet; closes it at once when the task was cancelled meanwhile.
    @MainActor
    func whenCancelled(_ close: @escaping @MainActor () -> Void) {
        let closeNow = lock.withLock { () -> Bool in
            if cancelled { return true }
            closeSheet = close
            return false
        }
        if closeNow { close() }
    }

    /// The task was cancelled: the caller gets ``WebAuthenticationError/cancelled`` and the sheet is closed.
    func cancel() {
        let close = lock.withLock { () -> (@MainActor () -> Void)? in
            cancelled = true
            return closeSheet
        }
        finish(.failure(.cancelled))
        if let close { Task { @MainActor in close() } }
    }
}
#endif
