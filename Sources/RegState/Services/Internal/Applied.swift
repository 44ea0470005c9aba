import Foundation

/// What applying one event did: the state its transition led to, every event applied (the event first, then the
/// results of its effects, in order), and what those effects answered with.
struct Applied: Sendable {
    /// The state the event's own transition led to (before any result of its effects).
    let state: RegState
    /// Every event applied: this one first, then the results of its effects in order.
    private(set) var events: [MachineEvent]
    /// What the effects answered with, in order (a result fed back adds its own).
    private(set) var results: [EffectResult] = []

    init(_ event: MachineEvent, leading state: RegState) {
        self.state = state
        events = [event]
    }

    /// Adds what performing one effect did.
    mutating func append(_ performed: Performed) {
        events += performed.applied?.events ?? []
        results += performed.applied?.results ?? []
        if let result = performed.result { results.append(result) }
    }

    /// The registration failure an effect reported (``MachineEvent/registrationFailed(_:)``), else `nil`.
    var registrationFailure: RegistrationFailure? {
        for case .registrationFailed(let failure) in events { return failure }
        return nil
    }

    /// The authorization URL a social login's start answered with.
    var authorizationURL: URL? {
        for case .authorizationURL(let url) in results { return url }
        return nil
    }

    /// What a sign-in on another device asks the user to do, when its start answered with it.
    var deviceVerification: DeviceVerification? {
        for case .deviceVerification(let verification) in results { return verification }
        return nil
    }

    /// Why a registration start was refused: a failure its effect reported, or its own transition landing in **F**
    /// (the machine refusing the start itself: a login already pending; a start from **F** goes to authenticating).
    var refusedStart: RegistrationFailure? {
        if let registrationFailure { return registrationFailure }
        if case .failed(.registration(let failure)) = state { return failure }
        return nil
    }
}

/// What performing one effect did: its result, and what feeding its event back applied.
struct Performed: Sendable {
    var result: EffectResult?
    var applied: Applied?

    static let nothing = Performed()
}
