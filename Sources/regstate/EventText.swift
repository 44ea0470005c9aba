import Foundation
import RegState
import RegStateTesting

/// How lettered events and states read: one human line ("Active H (social, online, a***@example.com)") or one
/// JSON object (`{"letter":"H","event":"sessionActive",...}`). Neither ever holds a token.
///
/// Personal data has one policy in everything the CLI prints — the human lines, `--json` and `events`: email
/// addresses are masked (`a***@example.com`) with ``MachineEvent/maskEmails(in:)``, the journal's own redaction;
/// the subject and the display name are shown. Output pasted into a bug report or a CI log names no address.
enum EventText {
    /// The human line for `event`: its title and a short detail.
    static func human(_ event: RegStateEvent) -> String {
        switch event {
        case .sessionActive(let session): "\(event.title) (\(details(of: session)))"
        case .error(.renewal(let failure)):
            "\(event.title) (\(failure.isRecoverable ? "recoverable" : "final")): \(failure.errorDescription ?? "unknown")"
        case .error(let error): "\(event.title): \(masked(error.errorDescription ?? "unknown error"))"
        case .awaitingConfirmation(let profile): "\(event.title) (\(describe(profile)))"
        case .registrationRequired: event.title
        case .awaitingUser(let shown): "\(title(event))\n" + DeviceCodeText.lines(shown)
        }
    }

    /// The JSON object for `event`: at least `letter` and `event`, plus its non-secret details.
    static func json(_ event: RegStateEvent) -> JSONValue {
        var object: [String: JSONValue] = ["title": .string(title(event))]
        if let letter = event.letter { object["letter"] = .string(String(letter)) }
        switch event {
        case .sessionActive(let session):
            object["event"] = "sessionActive"
            object.merge(fields(of: session)) { _, new in new }
        case .error(let error):
            object["event"] = "error"
            object["recoverable"] = .bool(error.isRecoverable)
            object["reason"] = .string(error.reasonCode)
            object["message"] = .string(masked(error.errorDescription ?? "unknown error"))
        case .awaitingConfirmation(let profile):
            object["event"] = "awaitingConfirmation"
            object["profile"] = fields(of: profile)
        case .registrationRequired:
            object["event"] = "registrationRequired"
        case .awaitingUser(let shown):
            object["event"] = "signInOnAnotherDevice"
            object.merge(DeviceCodeText.fields(shown)) { _, new in new }
        }
        return .object(object)
    }

    /// The event's title; the one grant that waits for the user is still named as the CLI always printed it.
    static func title(_ event: RegStateEvent) -> String {
        if case .awaitingUser = event { "Sign In On Another Device" } else { event.title }
    }

    /// The summary of a settled state: "Active B (social, online, ...)", "Registration Required D", "Error F: ...".
    static func human(_ state: RegState) -> String {
        if let event = state.event { return human(event) }
        return if case .authenticating = state { "Authenticating" } else { "Unsettled" }
    }

    /// "social, online, alice (alice@example.com), expires 2025-…" for a session.
    static func details(of session: Session) -> String {
        var parts: [String] = []
        if session.activation == .nonNative { parts.append("non-native token") }
        if let type = session.registrationType { parts.append(type.rawValue.lowercased()) }
        switch session.connectivity {
        case .online: parts.append("online")
        case .offline(let issue): parts.append("offline: \(describe(issue))")
        }
        if let profile = session.profile { parts.append(describe(profile)) }
        if let expiresAt = session.expiresAt {
            // After a recoverable E the stored token is expired or was refused: never claim it is valid.
            parts.append(session.renewalPending ? "access token needs renewal (was due \(timestamp(expiresAt)))"
                                                : "access token expires \(timestamp(expiresAt))")
        }
        return parts.joined(separator: ", ")
    }

    /// "Alice <a***@example.com>", or whatever of name and email is known; addresses masked.
    static func describe(_ profile: Profile) -> String {
        let text = switch (profile.name, profile.email) {
        case let (name?, email?) where name != email: "\(name) <\(email)>"
        case let (_, email?): email
        case let (name?, nil): name
        case (nil, nil): profile.subject
        }
        return masked(text)
    }

    /// The printed-output policy for personal data: every email address masked.
    static func masked(_ text: String) -> String {
        MachineEvent.maskEmails(in: text)
    }

    /// The offline reason in words.
    static func describe(_ issue: TransientIssue) -> String {
        switch issue {
        case .noInternet: "no internet"
        case .ssoUnspecifiedIssue: "sign-in service problem"
        }
    }

    /// ISO 8601 in UTC, to the second (`2026-11-24T13:38:27Z`): ``RecordedTime/text(_:)``, which never traps.
    static func timestamp(_ date: Date) -> String { RecordedTime.text(date) }

    private static func fields(of session: Session) -> [String: JSONValue] {
        var object: [String: JSONValue] = ["activation": .string(session.activation.rawValue)]
        switch session.connectivity {
        case .online: object["connectivity"] = "online"
        case .offline(let issue):
            object["connectivity"] = "offline"
            object["offlineReason"] = .string(issue.rawValue)
        }
        if let type = session.registrationType { object["registrationType"] = .string(type.rawValue) }
        if let expiresAt = session.expiresAt { object["expiresAt"] = .string(timestamp(expiresAt)) }
        if session.expiresAt != nil { object["renewalPending"] = .bool(session.renewalPending) }
        if let profile = session.profile { object["profile"] = fields(of: profile) }
        return object
    }

    private static func fields(of profile: Profile) -> JSONValue {
        var object: [String: JSONValue] = ["subject": .string(profile.subject), "issuer": .string(profile.issuer),
                                           "emailVerified": .bool(profile.emailVerified)]
        if let email = profile.email { object["email"] = .string(masked(email)) }
        if let name = profile.name { object["name"] = .string(masked(name)) }
        return .object(object)
    }
}
