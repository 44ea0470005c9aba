import Foundation

/// An event that does not apply in the current state: the typed outcome of an invalid (state, event) pair.
public struct TransitionRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// The event that was rejected.
    package var event: MachineEvent
    /// The state it was rejected in.
    public var state: RegState

    package init(event: MachineEvent, state: RegState) {
        self.event = event
        self.state = state
    }

    /// "<event> does not apply in state <state>", by case names only: the values may hold personal data.
    public var description: String { "\(event.name) does not apply in state \(state.caseName)" }

    /// What the state allows instead, in words.
    public var advice: String {
        switch state {
        case .active: "a session is already active; log out first"
        case .registrationRequired: "no session or registration is in progress; start a registration"
        case .authenticating: "a sign-in is in progress; finish it or cancel it with Retry"
        case .awaitingConfirmation: "the profile is awaiting Confirm or Retry"
        case .unsettled: "the service has not settled yet; wait for its first event"
        case .failed: "the last attempt failed; start a registration again"
        }
    }
}

extension TransitionRejection: LocalizedError {
    /// A sentence saying what the state allows instead.
    public var errorDescription: String? {
        "That cannot be done now (\(event.name) in state \(state.caseName)): \(advice)."
    }
}

extension RegState {
    /// The case name, for rejections, diagrams and logs.
    public var caseName: String {
        switch self {
        case .unsettled: "unsettled"
        case .registrationRequired: "registrationRequired"
        case .authenticating: "authenticating"
        case .awaitingConfirmation: "awaitingConfirmation"
        case .active: "active"
        case .failed: "failed"
        }
    }
}
