import Foundation

/// Why stored credentials were not used: they belong to another provider or client than the one configured, which
/// never reads, renews with, revokes or sends them (it starts in **D**; the record is left as it is).
package enum CredentialBindingMismatch: String, Sendable, Equatable, CaseIterable {
    /// The credentials were issued by another issuer.
    case issuer
    /// The credentials were issued by this issuer, but to another client id.
    case client
    /// A record of the format before credentials were bound, whose origin cannot be shown (no readable ID token).
    case unproven

    /// A sentence for people; names neither the other issuer nor any token.
    package var sentence: String {
        switch self {
        case .issuer: "the stored credentials were issued by another provider (issuer)"
        case .client: "the stored credentials were issued to another client id"
        case .unproven: "the stored credentials do not show which provider and client they were issued for"
        }
    }
}

/// The issuer and client id credentials are bound to: those of the configuration that stored them.
package struct CredentialBinding: Sendable, Equatable {
    /// The issuer identifier, as ID tokens carry it (``OIDCConfiguration/issuerIdentifier``).
    package var issuer: String
    package var clientID: String

    package init(_ configuration: OIDCConfiguration) {
        issuer = configuration.issuerIdentifier
        clientID = configuration.clientID
    }

    /// Why a record stored for `issuer` and `clientID` is not this binding's, or `nil` when it is. A record of the
    /// previous format (neither stored) is this binding's when its ID token (validated when stored) shows `iss` and
    /// the client among the audiences; without a readable one it is ``CredentialBindingMismatch/unproven``.
    package func mismatch(issuer storedIssuer: String?, clientID storedClient: String?,
                          idToken: String?) -> CredentialBindingMismatch? {
        if storedIssuer == nil, storedClient == nil {
            guard let idToken, let token = try? JSONWebToken(compact: idToken) else { return .unproven }
            if token.issuer != issuer { return .issuer }
            return token.audience.contains(clientID) ? nil : .client
        }
        if storedIssuer != issuer { return .issuer }
        return storedClient == clientID ? nil : .client
    }
}
