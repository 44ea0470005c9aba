import Foundation

/// What applying one event did: the state its transition led to, every event applied (the event first, then the
/// results of its effects, in order), and what those effects answered with.
struct Applied: Sendable {
    /// The state the event's own transition led to (before any result of its effects).
    let state: RegState
    /// Every event applied: this one first, then the results of its effects in order.
    private(set) var events: [MachineEvent]
    /// What the effects answered with, in order (a result fed back adds its own).
    private(set) var results: [Answer] = []

    init(_ event: MachineEvent, leading state: RegState) {
        self.state = state
        events = [event]
    }

    /// Adds what feeding an effect's result back applied.
    mutating func append(_ fed: Applied?) {
        events += fed?.events ?? []
        results += fed?.results ?? []
    }

    /// Adds what an effect answered with.
    mutating func append(_ answer: Answer?) {
        if let answer { results.append(answer) }
    }

    /// The answer of the renewal of `kind` an effect ran, when it ran one.
    func renewal(_ kind: TokenCarrier) -> Result<AccessCredential?, RegStateServiceError>? {
        for case .renewed(kind, let answer) in results { return answer }
        return nil
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
