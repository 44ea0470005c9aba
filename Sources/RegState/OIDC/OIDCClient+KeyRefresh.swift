import Foundation

extension OIDCClient {
    /// Discovery (unless cached) and the issuer's signing keys, fetched afresh: the cached keys may be the ones a
    /// rotation has retired since, and an answer signed with the new key could not be checked while the key set is
    /// out of reach. A failed fetch keeps the cache and throws, so no grant is spent.
    package func prepareIDTokenCheck() async throws(OIDCError) {
        _ = try await keySet(forceRefresh: true)
    }
}
