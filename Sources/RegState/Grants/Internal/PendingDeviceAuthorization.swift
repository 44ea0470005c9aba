import Foundation

/// The device authorization in progress (RFC 8628), kept in the secure store (under ``storeKey``) so that a process
/// killed while the user approves on another device resumes it on the next launch, and so that every process sharing
/// the store polls the one authorization at the one pace. It holds a secret (the `device_code`): it lives only in the
/// secure store and in memory, never in the journal, a log or a description.
struct PendingDeviceAuthorization: PendingGrantRecord, Equatable, RedactedDescription {
    /// The secure-store key of the record.
    static let storeKey = "pending_device_authorization"

    /// The record's format; a later format adds members, it never changes these.
    var version = 1
    /// The `device_code` the token endpoint is polled with: a secret.
    var deviceCode: String
    /// What the user is shown, with the interval in force (``DeviceVerification/interval``, raised by `slow_down`).
    var verification: DeviceVerification
    /// The grant this record is (its device code).
    var grantID: String { deviceCode }
    /// The issuer identifier the authorization was made for.
    var issuer: String
    /// The client id the authorization was made for.
    var clientID: String
    /// The RFC 7638 thumbprint of the DPoP key made for this registration, when DPoP is on: every poll is proven by it.
    var dpopKeyThumbprint: String?
    /// When the answer arrived, by the device clock.
    var createdAt: Date
    /// The earliest instant of the next poll, whichever process makes it: a poll moves it one interval on, a
    /// `slow_down` five seconds more, a transient failure by the backoff.
    var notBefore: Date
    /// Transient failures in a row (no connection, 5xx, a timeout): the backoff grows with them.
    var transientFailures = 0
    /// The process polling now (a random identifier each process draws), `nil` before the first poll: another
    /// process waits while its lease lasts (one interval past its next poll), then takes over.
    var poller: String?

    /// The creation time and the user code's expiry only; never the device code.
    var description: String {
        "PendingDeviceAuthorization(createdAt: \(createdAt), expiresAt: \(verification.expiresAt), device code redacted)"
    }
}
