import Foundation

/// What the app shows while the device authorization grant (RFC 8628) waits for the user: the code to type and
/// where to type it, on a phone or a laptop. It holds no secret (the device code stays in the secure store).
public struct DeviceVerification: Sendable, Equatable, Codable {
    /// The short code the user types on the verification page (`user_code`), as the provider sent it.
    public var userCode: String
    /// The page where the user signs in and types ``userCode`` (`verification_uri`).
    public var verificationURI: URL
    /// The page with the code already filled in (`verification_uri_complete`), for a link or a QR code; `nil` when
    /// the provider sends none.
    public var verificationURIComplete: URL?
    /// When the code stops working (`expires_in` from when the answer arrived, on the device clock).
    public var expiresAt: Date
    /// The seconds the device waits between two polls of the token endpoint now (`interval`, 5 s when the provider
    /// sends none, plus 5 s for every `slow_down`).
    public var interval: TimeInterval

    /// Creates what to show.
    public init(userCode: String, verificationURI: URL, verificationURIComplete: URL?, expiresAt: Date,
                interval: TimeInterval) {
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresAt = expiresAt
        self.interval = interval
    }
}
