import Foundation

extension RegStateService {
    /// Whether the stored session's tokens are bound to the installation's DPoP key, with the key's RFC 7638
    /// thumbprint (never the key), for `status`: of the record as this service last read or wrote it (the one its
    /// state comes from; read now when it has read none yet).
    public func tokenBinding() async -> TokenBinding {
        guard let snapshot = await runner.tokens.lastSeenSnapshot(), snapshot.session != nil else { return .none }
        guard snapshot.isDPoPBound else { return .bearer }
        do {
            guard let key = try runner.dpop.boundKey(matching: snapshot.dpopThumbprint) else {
                return .dpopKeyUnavailable(reason: "the key record holds another key than the tokens'")
            }
            return .dpop(thumbprint: key.thumbprint)
        } catch {
            return .dpopKeyUnavailable(reason: error.errorDescription ?? "unreadable")
        }
    }
}
