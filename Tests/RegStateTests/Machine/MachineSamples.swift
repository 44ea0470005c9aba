import Foundation
@testable import RegState

/// The library's representative states and events (the same ones the diagrams are drawn from), for the tests.
enum MachineSamples {
    static let profile = TransitionTable.profile
    static let stored = TransitionTable.stored
    static let storedSession = stored.session(.stored)
    /// Offline after a transient renewal failure: the access token needs the renewal that failed.
    static let offlineSession: Session = {
        var session = stored.session(.stored, connectivity: .offline(.noInternet))
        session.renewalPending = true
        return session
    }()
    /// Online, after a renewal that failed on the local store.
    static let pendingSession: Session = {
        var session = stored.session(.stored)
        session.renewalPending = true
        return session
    }()
    static let nonNativeSession = Session(activation: .nonNative)
    static let states = TransitionTable.states
    static let events = TransitionTable.events
    static let callback = URL(string: "com.example.app:/callback?code=c&state=s")!
}

extension RegState {
    /// The sample's label, as the diagrams print it.
    var sampleLabel: String { TransitionTable.label(self) }
}
