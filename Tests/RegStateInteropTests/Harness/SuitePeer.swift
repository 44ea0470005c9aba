import Testing

/// One provider for a whole suite: started before the suite's first test, stopped after its last (also when a test
/// fails), for suites whose tests neither stop nor pause the provider and do not count its tokens across tests.
///
/// A start costs about two seconds of a shared CI machine, so a suite of read-only cases pays it once. Tests read
/// the provider with ``peer(as:)``. Availability follows ``withPeer(_:_:_:)``: under `CI=true` a provider that does
/// not start fails the suite; elsewhere it is skipped with the reason.
struct SuitePeer: SuiteTrait, TestScoping {
    let kind: PeerKind
    let knobs: PeerKnobs

    var isRecursive: Bool { false }

    /// The running provider, inside a suite with this trait.
    @TaskLocal static var current: (any Peer)?

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        try await withPeer(kind, knobs) { peer in
            try await Self.$current.withValue(peer) { try await function() }
        }
    }

    /// The suite's provider as its concrete type.
    ///
    /// - Throws: ``InteropError/providerUnavailable(_:)`` outside a suite with the trait, or for another kind.
    static func peer<P: Peer>(as type: P.Type) throws -> P {
        guard let peer = current as? P else {
            throw InteropError.providerUnavailable("no \(P.self) for this suite (a SuitePeer trait is missing)")
        }
        return peer
    }
}

extension Trait where Self == SuitePeer {
    /// Starts one provider of `kind` with `knobs` for the whole suite (``SuitePeer``).
    static func peer(_ kind: PeerKind, _ knobs: PeerKnobs = PeerKnobs()) -> SuitePeer {
        SuitePeer(kind: kind, knobs: knobs)
    }
}
