import Foundation

/// A pending record an authorization code redeems (``AuthorizationCodeRedemption``): the social login's
/// ``PendingLogin`` or the step-up's ``PendingStepUp``.
protocol CodeGrantRecord: PendingGrantRecord {
    /// The authorization request its redirect must answer.
    var request: AuthorizationRequest { get }
    /// The thumbprint of the DPoP key its tokens are to be bound to, when they are.
    var dpopKeyThumbprint: String? { get }
}

extension CodeGrantRecord {
    /// When it was made, by the device clock.
    var createdAt: Date { request.issuedAt }

    /// Whether it is older than `lifetime` seconds at `now`.
    func isExpired(at now: Date, lifetime: TimeInterval) -> Bool {
        now.timeIntervalSince(createdAt) > lifetime
    }
}
