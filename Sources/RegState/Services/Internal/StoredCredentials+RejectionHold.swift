import Foundation

/// The record's two tokens and their rejection holds (``RejectionHold``), by carrier.
extension StoredCredentials {
    /// The stored token `carrier` names.
    func token(of carrier: TokenCarrier) -> String? {
        carrier == .accessToken ? accessToken : securityToken
    }

    /// The field that keeps the hold of `carrier`'s token.
    static func holdField(_ carrier: TokenCarrier) -> WritableKeyPath<StoredCredentials, RejectionHold?> {
        carrier == .accessToken ? \.accessTokenHold : \.securityTokenHold
    }

    /// The hold of `token`, when it is the stored token of its carrier and has one.
    func hold(of token: String, carrier: TokenCarrier) -> RejectionHold? {
        self.token(of: carrier) == token ? self[keyPath: Self.holdField(carrier)] : nil
    }
}
