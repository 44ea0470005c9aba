import Foundation

/// The journal's form of an event and of what it carries (``RecordValue``); the form is package API for the CLI's
/// and the tests' redacted views of a journal (RegStateTesting's `redactedDetails`).
extension MachineEvent: RecordValue {
    package var json: JSONValue {
        switch self {
        case .launched(let isNative): .tagged(name, ["isNative": isNative])
        case .storedTokensInspected(let status): .tagged(name, ["_0": status])
        case .renewalRequested(let trigger): .tagged(name, ["_0": trigger])
        case .renewalSucceeded(let session), .authenticated(let session), .registrationConfirmed(let session),
             .hostTokenAccepted(let session):
            .tagged(name, ["_0": session])
        case .renewalFailed(let failure, let stored): .tagged(name, ["_0": failure, "stored": stored])
        case .registrationRequested(let method): .tagged(name, ["_0": method])
        case .registrationFailed(let failure), .hostTokenRefused(let failure): .tagged(name, ["_0": failure])
        case .logoutRefused(let issue): .tagged(name, ["_0": issue])
        case .clockOffsetObserved(let seconds, let source): .tagged(name, ["seconds": seconds, "source": source])
        case .nonNativeTokenInstalled, .authorizationIssued, .credentialsSubmitted, .confirmationRequested,
             .retryRequested, .logoutRequested, .loggedOut, .forcedLogout, .clearStateRequested, .credentialsCleared,
             .hostTokenSubmitted, .securityTokenRenewed, .pendingLoginResumed:
            .tagged(name)
        }
    }

    init(json: JSONValue) throws(JSONFields.Damaged) {
        let (name, fields) = try JSONFields.tagged(json)
        switch name {
        case "launched": self = .launched(isNative: try fields.value("isNative"))
        case "storedTokensInspected": self = .storedTokensInspected(try fields.value())
        case "renewalRequested": self = .renewalRequested(try fields.value())
        case "renewalSucceeded": self = .renewalSucceeded(try fields.value())
        case "renewalFailed": self = .renewalFailed(try fields.value(), stored: try fields.optional("stored"))
        case "registrationRequested": self = .registrationRequested(try fields.value())
        case "authenticated": self = .authenticated(try fields.value())
        case "registrationFailed": self = .registrationFailed(try fields.value())
        case "registrationConfirmed": self = .registrationConfirmed(try fields.value())
        case "logoutRefused": self = .logoutRefused(try fields.value())
        case "hostTokenAccepted": self = .hostTokenAccepted(try fields.value())
        case "hostTokenRefused": self = .hostTokenRefused(try fields.value())
        case "clockOffsetObserved":
            self = .clockOffsetObserved(seconds: try fields.value("seconds"), source: try fields.value("source"))
        default:
            self = try Self.withoutValues.first { $0.name == name }.orDamaged()
        }
    }

    /// The events that carry nothing.
    private static let withoutValues: [MachineEvent] = [
        .nonNativeTokenInstalled, .authorizationIssued, .credentialsSubmitted, .confirmationRequested, .retryRequested,
        .logoutRequested, .loggedOut, .forcedLogout, .clearStateRequested, .credentialsCleared, .hostTokenSubmitted,
        .securityTokenRenewed, .pendingLoginResumed,
    ]
}

extension StoredTokenStatus: RecordValue {
    var json: JSONValue {
        switch self {
        case .nothing: .tagged("nothing")
        case .corrupt(let reason): .tagged("corrupt", ["reason": reason])
        case .unreadable(let reason): .tagged("unreadable", ["reason": reason])
        case .valid(let session): .tagged("valid", ["_0": session])
        case .expired(let session): .tagged("expired", ["_0": session])
        case .boundElsewhere(let mismatch): .tagged("boundElsewhere", ["_0": mismatch])
        }
    }

    init(json: JSONValue) throws(JSONFields.Damaged) {
        let (name, fields) = try JSONFields.tagged(json)
        switch name {
        case "nothing": self = .nothing
        case "corrupt": self = .corrupt(reason: try fields.value("reason"))
        case "unreadable": self = .unreadable(reason: try fields.value("reason"))
        case "valid": self = .valid(try fields.value())
        case "expired": self = .expired(try fields.value())
        case "boundElsewhere": self = .boundElsewhere(try fields.value())
        default: throw JSONFields.Damaged()
        }
    }
}

/// Journals written before 2026-11 also carry `hasRefreshToken`, which nothing read; it is ignored.
extension StoredSession: RecordValue {
    var json: JSONValue {
        .members(["expiresAt": expiresAt, "profile": profile, "refreshExpiresAt": refreshExpiresAt,
                  "registrationType": registrationType])
    }

    init(json: JSONValue) throws(JSONFields.Damaged) {
        let fields = try JSONFields(json: json)
        self.init(registrationType: try fields.value("registrationType"), expiresAt: try fields.value("expiresAt"),
                  refreshExpiresAt: try fields.optional("refreshExpiresAt"), profile: try fields.value("profile"))
    }
}

extension Profile: RecordValue {
    var json: JSONValue {
        .members(["email": email, "emailVerified": emailVerified, "issuer": issuer, "name": name, "picture": picture,
                  "subject": subject])
    }

    init(json: JSONValue) throws(JSONFields.Damaged) {
        let fields = try JSONFields(json: json)
        self.init(subject: try fields.value("subject"), issuer: try fields.value("issuer"),
                  email: try fields.optional("email"), emailVerified: try fields.value("emailVerified"),
                  name: try fields.optional("name"), picture: try fields.optional("picture"))
    }
}

extension RegistrationMethod: RecordValue {
    var json: JSONValue {
        switch self {
        case .social: .tagged("social")
        case .passwordless(let email): .tagged("passwordless", ["email": email])
        case .device: .tagged("device")
        }
    }

    init(json: JSONValue) throws(JSONFields.Damaged) {
        let (name, fields) = try JSONFields.tagged(json)
        switch name {
        case "social": self = .social
        case "passwordless": self = .passwordless(email: try fields.value("email"))
        case "device": self = .device
        default: throw JSONFields.Damaged()
        }
    }
}

extension RenewalTrigger: RecordValue {}
extension ClockOffsetSource: RecordValue {}
extension CredentialBindingMismatch: RecordValue {}
extension RegistrationType: RecordValue {}
extension TransientIssue: RecordValue {}
extension Activation: RecordValue {}
