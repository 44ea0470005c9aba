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

    private var failures: [PeerKind: String] = [:]

    /// Starts a django-oauth-toolkit provider, or explains why not.
    ///
    /// - Throws: the start failure under CI; otherwise cancels the calling test (`Test.cancel`) with the reason.
    func startPeer(knobs: InteropPeer.Knobs) async throws -> InteropPeer {
        try await start(.django) { try await InteropPeer.start(knobs: knobs) }
    }

    /// Starts a Glewlwyd provider, or explains why not (the same rules as ``startPeer(knobs:)``).
    func startGlewlwyd(knobs: PeerKnobs) async throws -> GlewlwydPeer {
        try await start(.glewlwyd) { try await GlewlwydPeer.start(knobs: knobs) }
    }

    /// Starts an idpyoidc provider, or explains why not (the same rules as ``startPeer(knobs:)``).
    func startIdpyoidc(knobs: PeerKnobs) async throws -> IdpyoidcPeer {
        try await start(.idpyoidc) { try await IdpyoidcPeer.start(knobs: knobs) }
    }

    private func start<P: Sendable>(_ kind: PeerKind, _ starter: () async throws -> P) async throws -> P {
        if let failure = failures[kind] { try Self.unavailable(kind, failure) }
        do {
            return try await starter()
        } catch {
            let reason = if case InteropError.providerUnavailable(let why) = error { why } else { "\(error)" }
            failures[kind] = reason
            try Self.unavailable(kind, reason)
        }
    }

    private static func unavailable(_ kind: PeerKind, _ reason: String) throws -> Never {
        if isCI { throw InteropError.providerUnavailable("\(kind.rawValue): \(reason)") }
        try Test.cancel("skipped: the \(kind.rawValue) provider (its kit in Tests/Peers) cannot run here: \(reason)")
    }
}

/// Runs `body` with a freshly started provider of its own, and always stops it afterwards, also when `body` throws.
func withInteropPeer<Result: Sendable>(
    _ knobs: InteropPeer.Knobs = InteropPeer.Knobs(),
    _ body: (InteropPeer) async throws -> Result
) async throws -> Result {
    guard PeerKind.selected.contains(.django) else {
        try Test.cancel("skipped: django is not in REGSTATE_INTEROP_PEERS")
    }
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
