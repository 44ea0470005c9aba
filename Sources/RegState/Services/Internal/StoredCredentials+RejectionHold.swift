import Foundation

/// The record's two tokens and their rejection holds (``RejectionHold``), by carrier.
extension StoredCredentials {
    /// The stored token `carrier` names.
    func token(of carrier: TokenCarrier) -> String? {
        switch carrier {
        case .accessToken: accessToken
        case .securityToken: securityToken
        }
    }

    /// The hold of `token`, when it is the stored token of its carrier and has one.
    func hold(of token: String, carrier: TokenCarrier) -> RejectionHold? {
        guard self.token(of: carrier) == token else { return nil }
        return switch carrier {
        case .accessToken: accessTokenHold
        case .securityToken: securityTokenHold
        }
    }

    /// Replaces the hold of `carrier`'s token.
    mutating func setHold(_ hold: RejectionHold?, for carrier: TokenCarrier) {
        switch carrier {
        case .accessToken: accessTokenHold = hold
        case .securityToken: securityTokenHold = hold
        }
    }
}
