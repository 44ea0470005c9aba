extension PeerKind {
    /// The kit that runs this provider.
    var kit: PeerKit {
        switch self {
        case .django: .django
        case .glewlwyd: .glewlwyd
        case .idpyoidc: .idpyoidc
        }
    }

    /// Those of `kinds` this run covers (``selected``), in their order: the arguments of a test over several
    /// providers, so a provider left out is not a case that "passes" without running.
    static func selecting(_ kinds: [PeerKind]) -> [PeerKind] {
        kinds.filter(selected.contains)
    }

    /// Throws unless this provider is in `REGSTATE_INTEROP_PEERS`: a test reaching a provider left out lacks its
    /// ``Testing/Trait/provider(_:)`` trait, and would otherwise pass without running.
    func requireSelected() throws {
        guard PeerKind.selected.contains(self) else {
            throw InteropError.scriptFailed("\(rawValue) is not in REGSTATE_INTEROP_PEERS, yet a test of it ran: give the "
                                            + "test the .provider(.\(rawValue)) trait")
        }
    }
}
