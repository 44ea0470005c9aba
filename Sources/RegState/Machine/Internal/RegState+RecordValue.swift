import Foundation

/// The journal's form of a state (a snapshot's) and of what it carries (``RecordValue``).
extension RegState: RecordValue {
    var json: JSONValue {
        switch self {
        case .unsettled, .registrationRequired: .tagged(caseName)
        case .authenticating(let method): .tagged(caseName, ["_0": method])
        case .awaitingConfirmation(let profile): .tagged(caseName, ["_0": profile])
        case .active(let session): .tagged(caseName, ["_0": session])
        case .failed(let error): .tagged(caseName, ["_0": error])
        }
    }

    init(json: JSONValue) throws(JSONFields.Damaged) {
        let (name, fields) = try JSONFields.tagged(json)
        switch name {
        case "unsettled": self = .unsettled
        case "registrationRequired": self = .registrationRequired
        case "authenticating": self = .authenticating(try fields.value())
        case "awaitingConfirmation": self = .awaitingConfirmation(try fields.value())
        case "active": self = .active(try fields.value())
        case "failed": self = .failed(try fields.value())
        default: throw JSONFields.Damaged()
        }
    }
}

/// `renewalPending` is absent in journals and snapshots written before it existed: it reads as `false`.
extension Session: RecordValue {
    var json: JSONValue {
        .members(["activation": activation, "connectivity": connectivity, "expiresAt": expiresAt, "profile": profile,
                  "registrationType": registrationType, "renewalPending": renewalPending])
    }

    init(json: JSONValue) throws(JSONFields.Damaged) {
        let fields = try JSONFields(json: json)
        self.init(activation: try fields.value("activation"), connectivity: try fields.value("connectivity"),
                  registrationType: try fields.optional("registrationType"), expiresAt: try fields.optional("expiresAt"),
                  profile: try fields.optional("profile"))
        renewalPending = try fields.optional("renewalPending") ?? false
    }
}

extension Connectivity: RecordValue {
    var json: JSONValue {
        switch self {
        case .online: .tagged("online")
        case .offline(let issue): .tagged("offline", ["_0": issue])
        }
    }

    init(json: JSONValue) throws(JSONFields.Damaged) {
        let (name, fields) = try JSONFields.tagged(json)
        switch name {
        case "online": self = .online
        case "offline": self = .offline(try fields.value())
        default: throw JSONFields.Damaged()
        }
    }
}

extension RegStateError: RecordValue {
    var json: JSONValue {
        switch self {
        case .renewal(let failure): .tagged("renewal", ["_0": failure])
        case .registration(let failure): .tagged("registration", ["_0": failure])
        }
    }

    init(json: JSONValue) throws(JSONFields.Damaged) {
        let (name, fields) = try JSONFields.tagged(json)
        switch name {
        case "renewal": self = .renewal(try fields.value())
        case "registration": self = .registration(try fields.value())
        default: throw JSONFields.Damaged()
        }
    }
}
