/// A lettered public event, delivered through ``RegStateService/events()``.
///
/// These are the seed's events: `SessionActive` (A, B, C, H), `Error` (E, F), `AwaitingConfirmation` (G) and
/// `RegistrationRequired` (D). The letter is a property so a UI, a log or the CLI can say "Active B".
public enum RegStateEvent: Sendable, Equatable {
    /// A session is active; its ``Session/activation`` is the letter.
    case sessionActive(Session)
    /// **E** or **F**.
    case error(RegStateError)
    /// **G**: the profile awaits confirmation.
    case awaitingConfirmation(Profile)
    /// **D**: the app should present the registration options.
    case registrationRequired

    /// A, B, C, H, D, E, F or G: the one place that knows the letters (an ``Activation``'s raw value is its letter).
    public var letter: Character {
        switch self {
        case .sessionActive(let session): session.activation.letter
        case .error(.renewal): "E"
        case .error(.registration): "F"
        case .awaitingConfirmation: "G"
        case .registrationRequired: "D"
        }
    }

    /// The event's name and letter as the seed says it: "Active B", "Error E", "Awaiting Confirmation G",
    /// "Registration Required D".
    public var title: String {
        switch self {
        case .sessionActive: "Active \(letter)"
        case .error: "Error \(letter)"
        case .awaitingConfirmation: "Awaiting Confirmation \(letter)"
        case .registrationRequired: "Registration Required \(letter)"
        }
    }
}
