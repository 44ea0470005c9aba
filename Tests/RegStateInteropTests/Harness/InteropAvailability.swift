import Foundation
import Testing

/// Starts the real providers, and remembers a provider that did not start so later tests fail at once.
///
/// Whether a test runs at all is its condition trait's business (``Testing/Trait/provider(_:)``): a provider left out
/// of `REGSTATE_INTEROP_PEERS`, or whose kit cannot run here, skips the test before it starts. A test that runs has
/// its kit ready, so a provider that then does not start FAILS the test with the reason, under `CI=true` or not: it
/// is never reported as passed. Under `CI=true` the traits never skip for a missing kit, so CI really runs them.
actor InteropAvailability {
    static let shared = InteropAvailability()

    /// Whether this run must not skip: the environment variable `CI` is `true`.
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    private var failures: [PeerKind: String] = [:]

    /// Starts a django-oauth-toolkit provider, or explains why not.
    ///
    /// - Throws: ``InteropError/providerUnavailable(_:)`` with the reason.
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
        throw InteropError.providerUnavailable("\(kind.rawValue): \(reason)")
    }
}

/// Runs `body` with a freshly started provider of its own, and always stops it afterwards, also when `body` throws.
func withInteropPeer<Result: Sendable>(
    _ knobs: InteropPeer.Knobs = InteropPeer.Knobs(),
    _ body: (InteropPeer) async throws -> Result
) async throws -> Result {
    try PeerKind.django.requireSelected()
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
