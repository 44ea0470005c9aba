import Foundation

extension JournalRecorder {
    /// What the journal forgets of the user when a session ends, in the same write as the event that ends it.
    enum Forgetting {
        /// A logout: the history folds into one snapshot of **D**.
        case history
        /// A final **E** or a forced logout (credentials cleared): every line stays, without personal data.
        case personalData

        /// What `event` makes the journal forget; `nil` for an event that ends no session.
        init?(after event: MachineEvent) {
            switch event {
            case .loggedOut: self = .history
            case .credentialsCleared: self = .personalData
            default: return nil
            }
        }
    }
}
