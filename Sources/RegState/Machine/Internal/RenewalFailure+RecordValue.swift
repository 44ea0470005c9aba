import Foundation

/// The journal's form of a renewal failure (``RecordValue``).
extension RenewalFailure: RecordValue {
    var json: JSONValue {
        switch self {
        case .transient(let issue): .tagged("transient", ["_0": issue])
        case .denied(let reason): .tagged("denied", ["reason": reason])
        case .credentialsExhausted: .tagged("credentialsExhausted")
        case .noRefreshToken: .tagged("noRefreshToken")
        case .storage(let detail): .tagged("storage", ["_0": detail])
        case .forcedLogout: .tagged("forcedLogout")
        case .awaitingHost: .tagged("awaitingHost")
        case .dpopKeyUnavailable(let reason): .tagged("dpopKeyUnavailable", ["reason": reason])
        case .invalidRefreshedIDToken(let reason): .tagged("invalidRefreshedIDToken", ["reason": reason])
        case .interruptedRenewalRefused(let reason): .tagged("interruptedRenewalRefused", ["reason": reason])
        }
    }

    init(json: JSONValue) throws(JSONFields.Damaged) {
        let (name, fields) = try JSONFields.tagged(json)
        switch name {
        case "transient": self = .transient(try fields.value())
        case "denied": self = .denied(reason: try fields.value("reason"))
        case "credentialsExhausted": self = .credentialsExhausted
        case "noRefreshToken": self = .noRefreshToken
        case "storage": self = .storage(try fields.value())
        case "forcedLogout": self = .forcedLogout
        case "awaitingHost": self = .awaitingHost
        case "dpopKeyUnavailable": self = .dpopKeyUnavailable(reason: try fields.value("reason"))
        case "invalidRefreshedIDToken": self = .invalidRefreshedIDToken(reason: try fields.value("reason"))
        case "interruptedRenewalRefused": self = .interruptedRenewalRefused(reason: try fields.value("reason"))
        default: throw JSONFields.Damaged()
        }
    }
}
