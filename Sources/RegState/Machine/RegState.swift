/// Where the user stands: the state the engine settles on and the app renders.
///
/// Each case carries exactly the data that is true in it, so impossible combinations cannot be represented.
public enum RegState: Sendable, Equatable, Codable {
    /// Before the first resolution after launch.
    case unsettled
    /// **D**: nothing usable is stored; the app should present the registration options.
    case registrationRequired
    /// Social or passwordless authentication is in progress (authorization URL issued, or code sent).
    case authenticating(RegistrationMethod)
    /// **G**: provisional tokens are stored and the profile awaits the user's Confirm or Retry.
    case awaitingConfirmation(Profile)
    /// A usable session (**A**, **B**, **C** or **H**), online or offline.
    case active(Session)
    /// **E** or **F** with its typed reason.
    case failed(RegStateError)

    /// The letter of the state as the seed names it: A/B/C/H, D, G, E/F; `nil` while unsettled or authenticating.
    public var letter: Character? {
        switch self {
        case .unsettled, .authenticating: nil
        case .registrationRequired: "D"
        case .awaitingConfirmation: "G"
        case .active(let session): session.activation.letter
        case .failed(let error): error.letter
        }
    }

    /// Whether the engine has settled: not unsettled.
    public var isSettled: Bool { self != .unsettled }

    /// The session, when active.
    public var session: Session? {
        if case .active(let session) = self { return session }
        return nil
    }
}
