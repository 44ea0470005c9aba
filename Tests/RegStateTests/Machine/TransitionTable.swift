import Foundation
@testable import RegState

/// Representative values of every state and event, and the diagrams drawn from running the transition function over
/// them: `Diagrams/` is generated from this, and a test fails when the committed diagrams drift from the code.
package enum TransitionTable {
    package static let epoch = Date(timeIntervalSince1970: 1_800_000_000)
    package static let profile = Profile(subject: "user-1", issuer: "https://idp.example", email: "alice@example.com",
                                         emailVerified: true, name: "Alice")
    package static let stored = StoredSession(registrationType: .social, expiresAt: epoch.addingTimeInterval(3600),
                                              profile: profile)
    package static let hostStored = StoredSession(registrationType: .hostSSO, expiresAt: epoch.addingTimeInterval(3600),
                                                  profile: profile)

    /// One value of each state shape the machine distinguishes.
    package static let states: [RegState] = [
        .unsettled,
        .registrationRequired,
        .authenticating(.social),
        .authenticating(.passwordless(email: "alice@example.com")),
        .authenticating(.device),
        .awaitingConfirmation(profile),
        .active(stored.session(.stored)),
        .active(stored.session(.stored, connectivity: .offline(.noInternet))),
        .active(stored.session(.renewed)),
        .active(stored.session(.renewed, connectivity: .offline(.noInternet))),
        .active(stored.session(.registered)),
        .active(stored.session(.registered, connectivity: .offline(.noInternet))),
        .active(Session(activation: .nonNative)),
        .active(hostStored.session(.registered)),
        .active(hostStored.session(.registered, connectivity: .offline(.noInternet))),
        .active(hostStored.session(.renewed)),
        .active(hostStored.session(.renewed, connectivity: .offline(.noInternet))),
        .failed(.registration(.stateMismatch)),
        .failed(.renewal(.denied(reason: "invalid_grant"))),
    ]

    /// One value of each event shape, with the outcomes that lead to different states.
    package static let events: [MachineEvent] = [
        .launched(isNative: true),
        .launched(isNative: false),
        .nonNativeTokenInstalled,
        .storedTokensInspected(.nothing),
        .storedTokensInspected(.corrupt(reason: "damaged")),
        .storedTokensInspected(.unreadable(reason: "I/O error")),
        .storedTokensInspected(.valid(stored)),
        .storedTokensInspected(.expired(stored)),
        .storedTokensInspected(.boundElsewhere(.issuer)),
        .renewalRequested(.expired),
        .renewalSucceeded(stored),
        .renewalFailed(.transient(.noInternet), stored: stored),
        .renewalFailed(.denied(reason: "invalid_grant"), stored: stored),
        .registrationRequested(.social),
        .registrationRequested(.passwordless(email: "alice@example.com")),
        .registrationRequested(.device),
        .authorizationIssued,
        .credentialsSubmitted,
        .authenticated(stored),
        .registrationFailed(.wrongCode),
        .confirmationRequested,
        .registrationConfirmed(stored),
        .retryRequested,
        .logoutRequested,
        .logoutRefused(.noInternet),
        .loggedOut,
        .forcedLogout,
        .clearStateRequested,
        .credentialsCleared,
        .hostTokenSubmitted,
        .hostTokenAccepted(hostStored),
        .hostTokenRefused(.tooManyRegisteredDevices),
        .securityTokenRenewed,
        .pendingLoginResumed,
        .clockOffsetObserved(seconds: 600, source: .dateHeader),
    ]

    /// The seed's paths as event sequences from launch, with the letters each emits.
    package static let paths: [(name: String, events: [MachineEvent])] = [
        ("Non-native platform", [.launched(isNative: false), .nonNativeTokenInstalled]),
        ("Nothing stored", [.launched(isNative: true), .storedTokensInspected(.nothing)]),
        ("Stored token valid", [.launched(isNative: true), .storedTokensInspected(.valid(stored))]),
        ("Stored token renewed", [.launched(isNative: true), .storedTokensInspected(.expired(stored)), .renewalSucceeded(stored)]),
        ("Renewal offline", [.launched(isNative: true), .storedTokensInspected(.expired(stored)),
                             .renewalFailed(.transient(.noInternet), stored: stored)]),
        ("Renewal refused", [.launched(isNative: true), .storedTokensInspected(.expired(stored)),
                             .renewalFailed(.denied(reason: "invalid_grant"), stored: stored), .credentialsCleared]),
        ("Social registration", [.launched(isNative: true), .storedTokensInspected(.nothing), .registrationRequested(.social),
                                 .authorizationIssued, .credentialsSubmitted, .authenticated(stored), .confirmationRequested,
                                 .registrationConfirmed(stored)]),
        ("Passwordless, Retry", [.launched(isNative: true), .storedTokensInspected(.nothing),
                                 .registrationRequested(.passwordless(email: "alice@example.com")), .authorizationIssued,
                                 .credentialsSubmitted, .authenticated(stored), .retryRequested]),
        ("Sign in on another device", [.launched(isNative: true), .storedTokensInspected(.nothing),
                                       .registrationRequested(.device), .authorizationIssued, .credentialsSubmitted,
                                       .authenticated(stored), .confirmationRequested, .registrationConfirmed(stored)]),
        ("Sign in on another device, denied", [.launched(isNative: true), .storedTokensInspected(.nothing),
                                               .registrationRequested(.device), .authorizationIssued,
                                               .credentialsSubmitted,
                                               .registrationFailed(.authorizationDenied(error: "access_denied",
                                                                                        description: nil))]),
        ("Social login after a relaunch", [.launched(isNative: true), .storedTokensInspected(.nothing),
                                           .pendingLoginResumed, .credentialsSubmitted, .authenticated(stored)]),
        ("Registration fails", [.launched(isNative: true), .storedTokensInspected(.nothing), .registrationRequested(.social),
                                .authorizationIssued, .credentialsSubmitted,
                                .registrationFailed(.authorizationDenied(error: "access_denied", description: nil))]),
        ("Forged redirect, then the genuine one", [.launched(isNative: true), .storedTokensInspected(.nothing),
                                                   .registrationRequested(.social), .authorizationIssued,
                                                   .credentialsSubmitted, .registrationFailed(.stateMismatch),
                                                   .credentialsSubmitted, .authenticated(stored)]),
        ("Logout", [.launched(isNative: true), .storedTokensInspected(.valid(stored)), .logoutRequested, .loggedOut]),
        ("Host sign-in", [.launched(isNative: true), .storedTokensInspected(.nothing), .hostTokenSubmitted,
                          .hostTokenAccepted(hostStored)]),
        ("Host renewal", [.launched(isNative: true), .storedTokensInspected(.valid(hostStored)),
                          .renewalRequested(.backendUnauthorized), .hostTokenSubmitted, .hostTokenAccepted(hostStored)]),
        ("Host transient issue", [.launched(isNative: true), .storedTokensInspected(.valid(hostStored)),
                                  .renewalRequested(.backendUnauthorized),
                                  .renewalFailed(.transient(.noInternet), stored: hostStored)]),
    ]

    /// What a sign-in on another device shows, for the table.
    package static let deviceVerification = DeviceVerification(
        userCode: "BCDF-GHJK", verificationURI: URL(fileURLWithPath: "/activate"), verificationURIComplete: nil,
        expiresAt: epoch.addingTimeInterval(600), interval: 5)

    /// The secret a public call would hand in with `event` in `state`, so the table shows the effect it asks for.
    package static func input(for event: MachineEvent, in state: RegState) -> SecretInput? {
        switch event {
        case .credentialsSubmitted:
            if case .authenticating(.passwordless) = state { .code("123456") } else { .callback(URL(fileURLWithPath: "/callback")) }
        case .renewalRequested: .staleAccessToken("stale")
        case .authorizationIssued where state == .authenticating(.device): .deviceVerification(deviceVerification)
        case .hostTokenSubmitted: .idToken("id-token")
        case .launched, .nonNativeTokenInstalled, .storedTokensInspected, .renewalSucceeded, .renewalFailed,
             .registrationRequested, .authorizationIssued, .authenticated, .registrationFailed, .confirmationRequested,
             .registrationConfirmed, .retryRequested, .logoutRequested, .logoutRefused, .loggedOut, .forcedLogout,
             .clearStateRequested, .credentialsCleared, .hostTokenAccepted, .hostTokenRefused, .securityTokenRenewed,
             .pendingLoginResumed, .clockOffsetObserved: nil
        }
    }

    /// `event` applied to `state` with the input a public call would hand in; `nil` when it does not apply.
    package static func transition(from state: RegState, on event: MachineEvent) -> RegStateMachine.Transition? {
        try? RegStateMachine.transition(from: state, on: event, carrying: input(for: event, in: state))
    }

    /// A label for a sample state that tells the sample shapes apart.
    package static func label(_ state: RegState) -> String {
        switch state {
        case .authenticating(.social): "authenticating_social"
        case .authenticating(.passwordless): "authenticating_passwordless"
        case .authenticating(.device): "authenticating_device"
        case .active(let session) where session.isHostDriven:
            "active_host_\(session.activation.rawValue)" + (session.connectivity.isOffline ? "_offline" : "")
        case .active(let session) where session.connectivity.isOffline: "active_\(session.activation.rawValue)_offline"
        case .active(let session): "active_\(session.activation.rawValue)"
        case .failed(let error): "failed_\(error.letter)"
        case .unsettled, .registrationRequired, .awaitingConfirmation: state.caseName
        }
    }

    /// `Diagrams/state-machine.md`: a Mermaid state diagram of every accepted transition between the sample states,
    /// and the lettered events of each seed path.
    package static func markdown() -> String {
        let edges = drawnEdges().map { "    \($0.from) --> \($0.to) : \($0.label)" }
        var lines = [
            "# RegState state machine",
            "",
            "Generated from `RegStateMachine.transition` by `DiagramTests` (regenerate with",
            "`REGSTATE_WRITE_DIAGRAMS=1 swift test --filter DiagramTests`). Do not edit by hand.",
            "",
            "Edge labels: the event, then the lettered events it emits (A/B/C/H active, D registration required,",
            "E/F error, G awaiting confirmation). `launched` and `clearStateRequested` apply in every state.",
            "",
            "```mermaid",
            "stateDiagram-v2",
            "    [*] --> unsettled",
        ]
        lines += edges
        lines += ["```", "", "## Paths", "", "| path | events | lettered events | final state |", "|---|---|---|---|"]
        for path in paths {
            var state = RegState.unsettled
            var letters: [String] = []
            for event in path.events {
                guard let transition = transition(from: state, on: event) else { break }
                letters += emitted(transition).map(\.title)
                state = transition.state
            }
            let names = path.events.map(\.name).joined(separator: " → ")
            lines.append("| \(path.name) | \(names) | \(letters.joined(separator: ", ")) | \(label(state)) |")
        }
        lines += ["", "## Transition table", "", "| state | accepted events |", "|---|---|"]
        for state in states {
            let accepted = events.filter { transition(from: state, on: $0) != nil }.map(\.name)
            var unique: [String] = []
            for name in accepted where !unique.contains(name) { unique.append(name) }
            lines.append("| \(label(state)) | \(unique.joined(separator: ", ")) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One drawn edge: sample-state labels and the event / letters label.
    package struct Edge: Equatable, Sendable {
        package let from: String
        package let to: String
        package let label: String
    }

    /// Every accepted transition between the sample states, minus effect-only self-loops and the everywhere events
    /// (drawn once, from unsettled).
    package static func drawnEdges() -> [Edge] {
        var edges: [Edge] = []
        for state in states {
            for event in events {
                guard let edge = edge(from: state, on: event), !edges.contains(edge) else { continue }
                edges.append(edge)
            }
        }
        return edges
    }

    /// The edge `event` in `state` draws, or `nil` when the event does not apply or the edge is not drawn.
    package static func edge(from state: RegState, on event: MachineEvent) -> Edge? {
        guard let transition = transition(from: state, on: event) else { return nil }
        let target = transition.state
        // Self-loops that only run effects would drown the picture; they are listed in the table below.
        if target == state, emitted(transition).isEmpty { return nil }
        // A relaunch or clear-state leads every state back to unsettled: drawn once, from unsettled.
        if event.appliesEverywhere, state != .unsettled { return nil }
        var text = event.name
        // The device grant's "what to show" has no letter: drawn as `code`.
        let letters = emitted(transition).map { $0.letter.map { String($0) } ?? "code" }
        if !letters.isEmpty { text += " / " + letters.joined(separator: ",") }
        return Edge(from: label(state), to: label(target), label: text)
    }

    /// `Diagrams/state-machine.dot`: the same edges as `markdown()`, for Graphviz.
    package static func dot() -> String {
        var lines = [
            "// Generated from RegStateMachine.transition by DiagramTests; do not edit by hand.",
            "digraph RegState {",
            "    rankdir=LR;",
            "    node [shape=box, style=rounded, fontname=\"Helvetica\"];",
            "    edge [fontname=\"Helvetica\", fontsize=10];",
            "    start [shape=point];",
            "    start -> unsettled;",
        ]
        for edge in drawnEdges() {
            lines.append("    \(edge.from) -> \(edge.to) [label=\"\(edge.label)\"];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    static func emitted(_ transition: RegStateMachine.Transition) -> [RegStateEvent] {
        transition.effects.compactMap { if case .emit(let event) = $0 { event } else { nil } }
    }

}

extension MachineEvent {
    /// Whether the event applies in every state (a relaunch, a clear-state).
    var appliesEverywhere: Bool {
        switch self {
        case .launched, .clearStateRequested: true
        case .nonNativeTokenInstalled, .storedTokensInspected, .renewalRequested, .renewalSucceeded, .renewalFailed,
             .registrationRequested, .authorizationIssued, .credentialsSubmitted, .authenticated, .registrationFailed,
             .confirmationRequested, .registrationConfirmed, .retryRequested, .logoutRequested, .logoutRefused, .loggedOut,
             .forcedLogout, .credentialsCleared, .hostTokenSubmitted, .hostTokenAccepted, .hostTokenRefused,
             .securityTokenRenewed, .pendingLoginResumed, .clockOffsetObserved: false
        }
    }
}
