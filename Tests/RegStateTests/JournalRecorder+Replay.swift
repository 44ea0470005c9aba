@testable import RegState

extension JournalRecorder {
    /// What a relaunch does with the journal: ``openAtLaunch()`` (reporting, compacting a long tail), then the state
    /// the journal on disk folds to, as ``RegStateService`` reads it; an unreadable journal is ``RegState/unsettled``.
    mutating func replay() -> RegState {
        openAtLaunch()
        return (try? storedFold()) ?? .unsettled
    }
}
