/// `--platform`: native platforms run third-party authentication, web does not (Active **A**).
enum PlatformChoice: String, Sendable, CaseIterable {
    /// This machine, native.
    case native
    /// A non-native web build.
    case web
}
