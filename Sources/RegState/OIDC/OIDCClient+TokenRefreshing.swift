import Foundation

extension OIDCClient: TokenRefreshing {
    /// The refresh-token grant at the discovered token endpoint.
    package func refreshTokens(using refreshToken: String, proofKey: DPoPKey?) async throws(OIDCError)
        -> TokenResponse
    {
        try await refresh(refreshToken: refreshToken, proofKey: proofKey)
    }

    /// Discovery and the issuer's signing keys, fetched unless cached.
    package func prepareIDTokenCheck() async throws(OIDCError) {
        _ = try await keySet(forceRefresh: false)
    }
}
