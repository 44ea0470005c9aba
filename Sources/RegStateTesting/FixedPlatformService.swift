import RegState

/// A `PlatformService` that reports a fixed platform, for tests and the CLI's `--platform web` (an app that knows
/// better implements `PlatformService`'s one property).
public struct FixedPlatformService: PlatformService {
    /// The platform description.
    public let platform: PlatformInfo

    /// Reports `platform`.
    public init(_ platform: PlatformInfo) {
        self.platform = platform
    }

    /// A non-native web platform (Active A).
    public static let web = FixedPlatformService(PlatformInfo(isNative: false, type: "web", formFactor: "browser"))
}
