import Testing

extension Trait where Self == ConditionTrait {
    /// Runs the test (or suite) when one of `kinds` is in `REGSTATE_INTEROP_PEERS` (every provider when unset) and the
    /// kit of each selected one can run here (``KitReadiness``); otherwise it is reported as skipped. Under `CI=true`
    /// a kit that cannot run does not skip: the test runs and fails on its provider.
    static func provider(_ kinds: PeerKind...) -> Self {
        let names = kinds.map(\.rawValue).joined(separator: " or ")
        return .enabled("needs \(names) in REGSTATE_INTEROP_PEERS and its kit in Tests/Peers able to run here") {
            let chosen = PeerKind.selecting(kinds)
            guard !chosen.isEmpty else { return false }
            for kind in chosen where !(await KitReadiness.shared.ready(kind.kit)) { return false }
            return true
        }
    }

    /// Runs the test (or suite) when `kit` can run here (``KitReadiness``), whichever providers are selected;
    /// otherwise it is reported as skipped (under `CI=true` it runs, and fails without the kit).
    static func kit(_ kit: PeerKit) -> Self {
        .enabled("needs the \(kit.name) kit in Tests/Peers able to run here") { await KitReadiness.shared.ready(kit) }
    }
}
