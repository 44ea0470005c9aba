import Foundation

/// What ``RenewalService/admit(replacing:seen:)`` tells a caller to do.
package enum RenewalAdmission: Sendable, Equatable {
    /// Journal a renewal request; its effect runs (or joins) the grant.
    case request
    /// A request for this token is already journaled: join its renewal.
    case join
    /// Someone already renewed the token: nothing to do but use its credential (`nil` when its DPoP key is not the
    /// stored one: the caller reads the record).
    case alreadyRenewed(AccessCredential?)
}
