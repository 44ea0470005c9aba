/// Tells the engine whether it runs on a native platform (elsewhere it installs the agreed non-native token, Active
/// **A**), and what to record about the device at registration.
public protocol PlatformService: Sendable {
    /// The platform the app runs on.
    var platform: PlatformInfo { get }
}

/// What the platform is: native or not, its type and its form factor (captured at registration).
public struct PlatformInfo: Sendable, Equatable, Codable {
    /// Whether third-party authentication can run here.
    public var isNative: Bool
    /// The platform type: `ios`, `android`, `macos`, `linux`, `web`, …
    public var type: String
    /// The form factor, such as the display size `390x844`, or `desktop`.
    public var formFactor: String

    /// Creates a platform description.
    public init(isNative: Bool, type: String, formFactor: String) {
        self.isNative = isNative
        self.type = type
        self.formFactor = formFactor
    }
}

/// The default ``PlatformService``: the operating system this binary was built for, always native, with the form
/// factor the host supplies (a display size on phones).
public struct SystemPlatformService: PlatformService {
    /// The platform description.
    public let platform: PlatformInfo

    /// Describes the current operating system with `formFactor`.
    public init(formFactor: String = "desktop") {
        platform = PlatformInfo(isNative: true, type: Self.operatingSystem, formFactor: formFactor)
    }

    private static var operatingSystem: String {
        #if os(iOS)
        "ios"
        #elseif os(macOS)
        "macos"
        #elseif os(tvOS)
        "tvos"
        #elseif os(watchOS)
        "watchos"
        #elseif os(Linux)
        "linux"
        #elseif os(Android)
        "android"
        #else
        "unknown"
        #endif
    }
}
