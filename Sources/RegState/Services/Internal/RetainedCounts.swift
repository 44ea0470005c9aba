import Foundation

/// What a service holds in memory that a long life could make grow: the simulation's memory invariant bounds these
/// counts over thousands of steps, so whatever is retained per step shows up as a count that climbs.
package struct RetainedCounts: Sendable, Equatable, CustomStringConvertible {
    /// Live event streams (``RegStateService/events()``).
    package var subscribers: Int
    /// Flights running: the access-token answer and the backend security token.
    package var flights: Int
    /// Origins with a remembered DPoP nonce.
    package var dpopNonces: Int
    /// Pending logins this service wrote and remembers as its own.
    package var ownedPendingLogins: Int

    /// The most pending logins a service remembers as its own.
    package static let ownedPendingLoginLimit = OwnedRecords.pendingLoginMemory

    /// Every count added up.
    package var total: Int { subscribers + flights + dpopNonces + ownedPendingLogins }

    package var description: String {
        "subscribers \(subscribers), flights \(flights), DPoP nonces \(dpopNonces), owned pending logins \(ownedPendingLogins)"
    }
}
