import Foundation

/// Reads, without `Codable`, the journal lines a launch and a compaction meet most: the launch's two events and a
/// snapshot of an unsettled, registration-required or active state. Each reading accepts exactly what `JSONDecoder`
/// accepts for those shapes, with the same result, or returns `nil` and `JSONDecoder` decides.
enum JournalLineReader {
    /// The entry `line` holds, when it is a launch event.
    static func entry(_ line: Data) -> JournalEntry? {
        guard var fields = JSONFields(parsing: line),
              let sequence = fields.object["seq"]?.intValue, (1...JournalEntry.maximumSequence).contains(sequence),
              case .number(let seconds)? = fields.object["at"], let at = RecordedTime.date(seconds),
              let event = fields.nested("event").flatMap(Self.event), !fields.mismatch
        else { return nil }
        return JournalEntry(sequence: sequence, recordedAt: at, event: event)
    }

    /// The snapshot `line` holds, when its state is one this reader covers.
    static func snapshot(_ line: Data) -> JournalSnapshot? {
        guard var wrapper = JSONFields(parsing: line), var fields = wrapper.nested("snapshot"),
              let sequence = fields.object["seq"]?.intValue,
              let state = fields.nested("state").flatMap(Self.state), !fields.mismatch, !wrapper.mismatch
        else { return nil }
        return JournalSnapshot(sequence: sequence, state: state)
    }

    private static func event(_ fields: JSONFields) -> MachineEvent? {
        guard let (name, payload) = fields.onlyMember else { return nil }
        switch name {
        case "launched":
            guard case .bool(let isNative)? = payload.object["isNative"] else { return nil }
            return .launched(isNative: isNative)
        case "storedTokensInspected":
            return payload.onlyValue.flatMap(Self.status).map { .storedTokensInspected($0) }
        default:
            return nil
        }
    }

    private static func status(_ fields: JSONFields) -> StoredTokenStatus? {
        guard let (name, payload) = fields.onlyMember else { return nil }
        switch name {
        case "nothing": return .nothing
        case "corrupt": return payload.stringMember("reason").map { .corrupt(reason: $0) }
        case "unreadable": return payload.stringMember("reason").map { .unreadable(reason: $0) }
        case "valid": return payload.onlyValue.flatMap(Self.storedSession).map { .valid($0) }
        case "expired": return payload.onlyValue.flatMap(Self.storedSession).map { .expired($0) }
        case "boundElsewhere":
            return payload.stringMember("_0").flatMap(CredentialBindingMismatch.init(rawValue:)).map { .boundElsewhere($0) }
        default: return nil
        }
    }

    /// ``StoredSession``'s synthesized form.
    private static func storedSession(_ fields: JSONFields) -> StoredSession? {
        var fields = fields
        guard let type = fields.raw("registrationType", as: RegistrationType.self),
              case .number(let seconds)? = fields.object["expiresAt"], let expiresAt = RecordedTime.date(seconds),
              let profile = fields.profile("profile")
        else { return nil }
        let refresh = fields.date("refreshExpiresAt")
        guard !fields.mismatch else { return nil }
        return StoredSession(registrationType: type, expiresAt: expiresAt,
                             refreshExpiresAt: refresh, profile: profile)
    }

    private static func state(_ fields: JSONFields) -> RegState? {
        guard let (name, payload) = fields.onlyMember else { return nil }
        switch name {
        case "unsettled": return .unsettled
        case "registrationRequired": return .registrationRequired
        case "active": return payload.onlyValue.flatMap(Self.session).map { .active($0) }
        default: return nil
        }
    }

    /// ``Session``'s `init(from:)`: `renewalPending` absent reads as `false`.
    private static func session(_ fields: JSONFields) -> Session? {
        var fields = fields
        guard let activation = fields.raw("activation", as: Activation.self),
              let connectivity = fields.nested("connectivity").flatMap(Self.connectivity)
        else { return nil }
        var session = Session(activation: activation, connectivity: connectivity,
                              registrationType: fields.raw("registrationType", as: RegistrationType.self),
                              expiresAt: fields.date("expiresAt"), profile: fields.profile("profile"))
        session.renewalPending = fields.bool("renewalPending") ?? false
        return fields.mismatch ? nil : session
    }

    private static func connectivity(_ fields: JSONFields) -> Connectivity? {
        guard let (name, payload) = fields.onlyMember else { return nil }
        switch name {
        case "online": return .online
        case "offline": return payload.stringMember("_0").flatMap(TransientIssue.init(rawValue:)).map { .offline($0) }
        default: return nil
        }
    }
}

extension JSONFields {
    /// The object at `_0` (an enum case's single unlabelled value).
    var onlyValue: JSONFields? {
        guard case .object(let members)? = object["_0"] else { return nil }
        return JSONFields(members)
    }

    /// The string at `key`, required.
    func stringMember(_ key: String) -> String? {
        guard case .string(let value)? = object[key] else { return nil }
        return value
    }
}
