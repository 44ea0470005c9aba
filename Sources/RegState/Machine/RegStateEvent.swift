/// A public event, delivered through ``RegStateService/events()``: the seed's lettered events, and
/// ``awaitingUser(_:)``, which has no letter (<doc:LettersAndStateMachine>).
public enum RegStateEvent: Sendable, Equatable {
    /// A session is active; its ``Session/activation`` is the letter.
    case sessionActive(Session)
    /// **E** or **F**.
    case error(RegStateError)
    /// **G**: the profile awaits confirmation.
    case awaitingConfirmation(Profile)
    /// **D**: the app should present the registration options.
    case registrationRequired
    /// A grant waits for the user, with what to show until it expires (<doc:SignInOnAnotherDevice>); it ends with
    /// **G** (approved), **F** (denied, expired) or **D** (cancelled). No letter.
    case awaitingUser(DeviceVerification)

    /// A, B, C, H, D, E, F or G: the one place that maps events to letters (an ``Activation``'s raw value is its
    /// letter, a ``RegStateError`` knows E and F); `nil` for ``awaitingUser(_:)``.
    public var letter: Character? {
        switch self {
        case .sessionActive(let session): session.activation.letter
        case .error(let error): error.letter
        case .awaitingConfirmation: "G"
        case .registrationRequired: "D"
        case .awaitingUser: nil
        }
    }

    /// The event's name and letter as the seed says it: "Active B", "Error E", "Awaiting Confirmation G",
    /// "Registration Required D"; "Awaiting User" has no letter.
    public var title: String {
        let letter = letter.map(String.init) ?? ""
        return switch self {
        case .sessionActive: "Active \(letter)"
        case .error: "Error \(letter)"
        case .awaitingConfirmation: "Awaiting Confirmation \(letter)"
        case .registrationRequired: "Registration Required \(letter)"
        case .awaitingUser: "Awaiting User"
        }
    }
}
