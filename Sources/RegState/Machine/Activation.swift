/// How a session became active: the letter a UI, a log or the CLI shows ("Active B").
public enum Activation: String, Sendable, Equatable, CaseIterable {
    /// **A**: the platform is not native, so the agreed non-native token was installed.
    case nonNative = "A"
    /// **B**: the session was restored from the store without a renewal: its access token is still valid or, after a
    /// recoverable **E** at launch, the session is kept offline with its data until a renewal succeeds
    /// (``Session/renewalPending`` is then `true`, and the token is not presented as valid).
    case stored = "B"
    /// **C**: the stored access token had expired and was renewed with the refresh token.
    case renewed = "C"
    /// **H**: the user confirmed a new registration.
    case registered = "H"

    /// The event letter.
    public var letter: Character { rawValue.first ?? "?" }
}
