import Testing

extension PeerKind {
    /// Starts a provider of this kind with `knobs` (the rules of ``InteropAvailability``: a provider that does not
    /// start throws, and a later start of the same kind throws at once).
    func start(_ knobs: PeerKnobs) async throws -> any Peer {
        switch self {
        case .django:
            try await InteropAvailability.shared.startPeer(knobs: InteropPeer.Knobs(
                accessTokenLifetime: knobs.accessTokenLifetime, refreshGrace: knobs.refreshGrace,
                deviceCodeLifetime: knobs.deviceCodeLifetime))
        case .glewlwyd:
            try await InteropAvailability.shared.startGlewlwyd(knobs: knobs)
        case .idpyoidc:
            try await InteropAvailability.shared.startIdpyoidc(knobs: knobs)
        }
    }

    /// Starts a provider of this kind with `knobs`, throwing start.sh's explanation when it cannot (remembering
    /// nothing: ``SuitePeers`` leaves the reporting to each test).
    func startWithoutReporting(_ knobs: PeerKnobs) async throws -> any Peer {
        switch self {
        case .django:
            try await InteropPeer.start(knobs: InteropPeer.Knobs(
                accessTokenLifetime: knobs.accessTokenLifetime, refreshGrace: knobs.refreshGrace,
                deviceCodeLifetime: knobs.deviceCodeLifetime))
        case .glewlwyd:
            try await GlewlwydPeer.start(knobs: knobs)
        case .idpyoidc:
            try await IdpyoidcPeer.start(knobs: knobs)
        }
    }
}

/// Runs `body` with a provider of `kind` and `knobs`: the suite's (``SuitePeers``) when it started one with the same
/// knobs, else a freshly started one of its own, always stopped afterwards, also when `body` throws.
///
/// A provider that does not start fails the test. Whether the test runs at all (its provider selected in
/// `REGSTATE_INTEROP_PEERS`, its kit able to run here) is decided by its ``Testing/Trait/provider(_:)`` trait; a test
/// that reaches this for a provider left out has no such trait, and fails saying so.
func withPeer<Result: Sendable>(
    _ kind: PeerKind,
    _ knobs: PeerKnobs = PeerKnobs(),
    _ body: (any Peer) async throws -> Result
) async throws -> Result {
    try kind.requireSelected()
    if let suite = SuitePeers.current, suite.knobs == knobs, let shared = suite.peers[kind] {
        return try await body(shared)
    }
    let peer = try await kind.start(knobs)
    do {
        let result = try await body(peer)
        await peer.stop()
        return result
    } catch {
        await peer.stop()
        throw error
    }
}

/// Providers for a whole suite: started before the suite's first test, stopped after its last (also when a test
/// fails), and handed by ``withPeer(_:_:_:)`` to every test of the suite that asks for one of these kinds with the
/// same knobs. For suites whose tests neither stop nor pause the provider and count nothing across tests (each reads
/// only its own tokens): a start costs seconds of a shared CI machine, so such a suite pays it once per provider.
///
/// A provider that does not start here is left out: each test then starts its own through ``withPeer(_:_:_:)``,
/// which reports the failure (skip, or failure under `CI=true`) where it belongs.
struct SuitePeers: SuiteTrait, TestScoping {
    let kinds: [PeerKind]
    let knobs: PeerKnobs

    /// The running providers of the suite, by kind, and the knobs they run with.
    struct Running: Sendable {
        var knobs: PeerKnobs
        var peers: [PeerKind: any Peer]
    }

    var isRecursive: Bool { false }

    /// The suite's providers, inside a suite with this trait.
    @TaskLocal static var current: Running?

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        var peers: [PeerKind: any Peer] = [:]
        for kind in PeerKind.selecting(kinds) where await KitReadiness.shared.ready(kind.kit) {
            peers[kind] = try? await kind.startWithoutReporting(knobs)
        }
        let running = Running(knobs: knobs, peers: peers)
        do {
            try await Self.$current.withValue(running) { try await function() }
        } catch {
            for peer in peers.values { await peer.stop() }
            throw error
        }
        for peer in peers.values { await peer.stop() }
    }
}

extension Trait where Self == SuitePeers {
    /// Starts one provider of each of `kinds` with `knobs` for the whole suite (``SuitePeers``).
    static func peers(_ kinds: [PeerKind], _ knobs: PeerKnobs = PeerKnobs()) -> SuitePeers {
        SuitePeers(kinds: kinds, knobs: knobs)
    }
}
