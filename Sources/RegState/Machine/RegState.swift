/// Where the user stands: the state the engine settles on and the app renders. Each case carries exactly the data
/// that is true in it, so impossible combinations cannot be represented.
public enum RegState: Sendable, Equatable {
    /// Before the first resolution after launch.
    case unsettled
    /// **D**: nothing usable is stored; the app should present the registration options.
    case registrationRequired
    /// A login grant of `method` is in progress (waiting for the user).
    case authenticating(RegistrationMethod)
    /// **G**: provisional tokens are stored and the profile awaits the user's Confirm or Retry.
    case awaitingConfirmation(Profile)
    /// A usable session (**A**, **B**, **C** or **H**), online or offline.
    case active(Session)
    /// **E** or **F** with its typed reason.
    case failed(RegStateError)

    /// The lettered event that announces this state: the one projection from state to event, used by the machine's
    /// diagrams, the CLI and the tests; `nil` while unsettled or authenticating, which have no letter.
    public var event: RegStateEvent? {
        switch self {
        case .unsettled, .authenticating: nil
        case .registrationRequired: .registrationRequired
        case .awaitingConfirmation(let profile): .awaitingConfirmation(profile)
        case .active(let session): .sessionActive(session)
        case .failed(let error): .error(error)
        }
    }

    /// The letter of the state as the seed names it: A/B/C/H, D, G, E/F; `nil` while unsettled or authenticating.
    public var letter: Character? { event?.letter }

    /// Whether the engine has settled: not unsettled.
    public var isSettled: Bool { self != .unsettled }

    /// The session, when active.
    public var session: Session? {
        if case .active(let session) = self { return session }
        return nil
    }
}
