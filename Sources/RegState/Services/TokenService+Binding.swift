import Foundation

/// Credentials bound to the issuer and client that stored them: a record of another configuration is
/// never used, one of the previous format is adopted when its ID token shows it was issued here.
extension TokenService {
    /// The record with this service's binding when it is of the previous format and its ID token shows it was issued
    /// here; otherwise unchanged. The binding is written with the next save.
    nonisolated func adopted(_ credentials: StoredCredentials) -> StoredCredentials {
        guard let binding, credentials.issuer == nil, credentials.clientID == nil,
              binding.mismatch(issuer: nil, clientID: nil, idToken: credentials.idToken) == nil else { return credentials }
        return bound(credentials)
    }

    /// - Throws: ``TokenServiceError/boundElsewhere(_:)`` when the record belongs to another issuer or client.
    nonisolated func checkBinding(of credentials: StoredCredentials) throws(TokenServiceError) {
        guard let binding, let mismatch = binding.mismatch(issuer: credentials.issuer, clientID: credentials.clientID,
                                                           idToken: credentials.idToken) else { return }
        throw .boundElsewhere(mismatch)
    }

    /// The record stamped with this service's binding (unchanged without one).
    nonisolated func bound(_ credentials: StoredCredentials) -> StoredCredentials {
        guard let binding else { return credentials }
        var credentials = credentials
        credentials.issuer = binding.issuer
        credentials.clientID = binding.clientID
        return credentials
    }
}
