import Foundation

/// What the public calls in the other extensions read: the stored credentials, keys and session summary, each read
/// once, the configuration's launch budget and the DPoP context.
extension RegStateService {
    /// The stored credentials now, read once.
    func tokenSnapshot() async -> TokenSnapshot? {
        await runner.tokens.snapshot()
    }

    /// The launch budget of the configuration, in seconds.
    var launchBudget: TimeInterval { runner.configuration.launchBudget }

    /// The stored session summary now (no token), read once.
    func storedSession() async -> StoredSession? { await runner.tokens.storedSession() }

    /// The keys in the secure store now.
    func storedKeys() -> [String] { (try? runner.dependencies.store.keys()) ?? [] }

    /// The installation's DPoP key, nonces and signer.
    nonisolated var dpop: DPoPContext { runner.dpop }
}
