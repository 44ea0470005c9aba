import Foundation
import Testing

/// Whether the real provider can run here, decided once per test process.
///
/// The first test that needs a provider tries to start one (which creates the venv on a fresh machine); when that
/// fails, the reason is remembered so that later tests do not spend minutes retrying. Under `CI=true` an unavailable
/// provider FAILS every interop test with the reason — CI must really run them; elsewhere the tests are cancelled
/// (reported as skipped) with the reason.
actor InteropAvailability {
    static let shared = InteropAvailability()

    /// Whether this run must not skip: the environment variable `CI` is `true`.
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    private var failure: String?

    /// Starts a provider, or explains why not.
    ///
    /// - Throws: the start failure under CI; otherwise cancels the calling test (`Test.cancel`) with the reason.
    func startPeer(knobs: InteropPeer.Knobs) async throws -> InteropPeer {
        if let failure { try Self.unavailable(failure) }
        do {
            return try await InteropPeer.start(knobs: knobs)
        } catch {
            let reason = if case InteropError.providerUnavailable(let why) = error { why } else { "\(error)" }
            failure = reason
            try Self.unavailable(reason)
        }
    }

    private static func unavailable(_ reason: String) throws -> Never {
        if isCI { throw InteropError.providerUnavailable(reason) }
        try Test.cancel("skipped: the interop provider (../shared/interop-peer) cannot run here: \(reason)")
    }
}

/// Runs `body` with a freshly started provider of its own, and always stops it afterwards, also when `body` throws.
func withInteropPeer<Result: Sendable>(
    _ knobs: InteropPeer.Knobs = InteropPeer.Knobs(),
    _ body: (InteropPeer) async throws -> Result
) async throws -> Result {
    let peer = try await InteropAvailability.shared.startPeer(knobs: knobs)
    do {
        let result = try await body(peer)
        await peer.stop()
        return result
    } catch {
        await peer.stop()
        throw error
    }
}
