import Foundation

/// Where an estimate of the provider's clock came from (``MachineEvent/clockOffsetObserved(seconds:source:)``).
package enum ClockOffsetSource: String, Sendable, Equatable {
    /// The HTTP `Date` header of the provider's answers (RFC 9110 §6.6.1).
    case dateHeader
    /// The `iat` of an ID token fresh from the provider's token endpoint, used when its answers carry no `Date`
    /// header; the ID token validator's leeway covers the time the token took to arrive.
    case idTokenIssueTime

    /// The change in the estimated offset (seconds) from which the journal records it again (smaller ones are jitter).
    package static let journalThreshold: TimeInterval = 60
}
