import RegState

/// What an app shows for each of RegState's lettered events: the one switch a consumer needs.
public enum Screen: Equatable, Sendable {
    /// Launch screen until the first event.
    case launching
    /// **D**: offer social and passwordless registration.
    case register
    /// **G**: show the profile with Confirm and Retry.
    case confirm(Profile)
    /// **A**, **B**, **C**, **H**: the signed-in app; `offline` when the session is kept without the network.
    case home(Session, offline: Bool)
    /// **E** (final) or **F**: a message and a way back to registration.
    case problem(String)
}

/// Reacts to every letter. A recoverable **E** (renewal failed offline) keeps the current screen: the session stays.
public func nextScreen(after event: RegStateEvent, current: Screen) -> Screen {
    switch event.letter {
    case "D": return .register
    case "G":
        if case .awaitingConfirmation(let profile) = event { return .confirm(profile) }
    case "A", "B", "C", "H":
        if case .sessionActive(let session) = event { return .home(session, offline: session.connectivity.isOffline) }
    case "E", "F":
        if case .error(let error) = event {
            return error.isRecoverable ? current : .problem(error.localizedDescription)
        }
    default: break
    }
    return current
}
