import Foundation

/// What the backend records about this installation when it issues a security token (the registration design: an installation
/// identifier, not a hardware one, plus the platform type and form factor).
public struct InstallationInfo: Sendable, Equatable, Codable {
    /// A random identifier created at first launch and kept in the secure store; a wiped device gets a new one.
    public var installationID: String
    /// The platform type: `ios`, `android`, `linux`, `macos`, `web`, …
    public var platform: String
    /// The form factor, for example the display size `390x844`, or `phone`/`tablet`/`desktop`.
    public var formFactor: String

    /// Creates installation info.
    public init(installationID: String, platform: String, formFactor: String) {
        self.installationID = installationID
        self.platform = platform
        self.formFactor = formFactor
    }
}
