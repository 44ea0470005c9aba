import Foundation

/// The journal's form of a registration failure (``RecordValue``). Journals of earlier versions may hold two
/// grant-named tags since made generic: `stepUpAnotherUser` reads as `anotherUser`, `deviceCodeExpired` as `codeExpired`.
extension RegistrationFailure: RecordValue {
    var json: JSONValue {
        switch self {
        case .discoveryFailed(let detail): .tagged("discoveryFailed", ["_0": detail])
        case .transient(let issue, let detail): .tagged("transient", ["_0": issue, "detail": detail])
        case .providerUnreachable(let detail): .tagged("providerUnreachable", ["_0": detail])
        case .pushedAuthorizationRefused(let error, let description):
            .tagged("pushedAuthorizationRefused", ["description": description, "error": error])
        case .pushedAuthorizationUnavailable(let reason): .tagged("pushedAuthorizationUnavailable", ["_0": reason])
        case .stateMismatch: .tagged("stateMismatch")
        case .noPendingLogin: .tagged("noPendingLogin")
        case .loginAlreadyInProgress: .tagged("loginAlreadyInProgress")
        case .pendingLoginExpired: .tagged("pendingLoginExpired")
        case .pendingLoginSuperseded: .tagged("pendingLoginSuperseded")
        case .malformedCallback(let detail): .tagged("malformedCallback", ["_0": detail])
        case .issuerMismatchInCallback: .tagged("issuerMismatchInCallback")
        case .authorizationDenied(let error, let description):
            .tagged("authorizationDenied", ["description": description, "error": error])
        case .tokenRequestFailed(let error, let description):
            .tagged("tokenRequestFailed", ["description": description, "error": error])
        case .malformedResponse(let detail): .tagged("malformedResponse", ["_0": detail])
        case .invalidIDToken(let detail): .tagged("invalidIDToken", ["_0": detail])
        case .authTimeMissing: .tagged("authTimeMissing")
        case .signInTooOld(let authenticatedAt): .tagged("signInTooOld", ["authenticatedAt": authenticatedAt])
        case .acrNotAccepted(let acr): .tagged("acrNotAccepted", ["_0": acr])
        case .anotherUser: .tagged("anotherUser")
        case .wrongCode: .tagged("wrongCode")
        case .codeExpired: .tagged("codeExpired")
        case .codeReused: .tagged("codeReused")
        case .codeSuperseded: .tagged("codeSuperseded")
        case .tooManyAttempts: .tagged("tooManyAttempts")
        case .tooManyRefusedRedirects: .tagged("tooManyRefusedRedirects")
        case .rateLimited(let retryAfter): .tagged("rateLimited", ["retryAfter": retryAfter])
        case .grantNotOffered(let kind): .tagged(kind.rawValue + "NotOffered")
        case .invalidEmail: .tagged("invalidEmail")
        case .tooManyRegisteredDevices: .tagged("tooManyRegisteredDevices")
        case .maxSecurityTokens: .tagged("maxSecurityTokens")
        case .backendFailed(let detail): .tagged("backendFailed", ["_0": detail])
        case .storage(let detail): .tagged("storage", ["_0": detail])
        case .unsupported(let detail): .tagged("unsupported", ["_0": detail])
        case .dpop(let error): .tagged("dpop", ["_0": error])
        }
    }

    init(json: JSONValue) throws(JSONFields.Damaged) {
        let (name, fields) = try JSONFields.tagged(json)
        switch name {
        case "discoveryFailed": self = .discoveryFailed(try fields.value())
        case "transient": self = .transient(try fields.value(), detail: try fields.value("detail"))
        case "providerUnreachable": self = .providerUnreachable(try fields.value())
        case "pushedAuthorizationRefused":
            self = .pushedAuthorizationRefused(error: try fields.value("error"), description: try fields.optional("description"))
        case "pushedAuthorizationUnavailable": self = .pushedAuthorizationUnavailable(try fields.value())
        case "malformedCallback": self = .malformedCallback(try fields.value())
        case "authorizationDenied":
            self = .authorizationDenied(error: try fields.value("error"), description: try fields.optional("description"))
        case "tokenRequestFailed":
            self = .tokenRequestFailed(error: try fields.value("error"), description: try fields.optional("description"))
        case "malformedResponse": self = .malformedResponse(try fields.value())
        case "invalidIDToken": self = .invalidIDToken(try fields.value())
        case "signInTooOld": self = .signInTooOld(authenticatedAt: try fields.value("authenticatedAt"))
        case "acrNotAccepted": self = .acrNotAccepted(try fields.optional("_0"))
        case "rateLimited": self = .rateLimited(retryAfter: try fields.optional("retryAfter"))
        case "backendFailed": self = .backendFailed(try fields.value())
        case "storage": self = .storage(try fields.value())
        case "unsupported": self = .unsupported(try fields.value())
        case "dpop": self = .dpop(try fields.value())
        case "stepUpAnotherUser": self = .anotherUser
        case "deviceCodeExpired": self = .codeExpired
        default:
            self = try Self.withoutValues.first { $0.json == .tagged(name) }.orDamaged()
        }
    }

    /// The failures that carry nothing.
    private static let withoutValues: [RegistrationFailure] = [
        .stateMismatch, .noPendingLogin, .loginAlreadyInProgress, .pendingLoginExpired, .pendingLoginSuperseded,
        .issuerMismatchInCallback, .authTimeMissing, .anotherUser, .wrongCode, .codeExpired, .codeReused,
        .codeSuperseded, .tooManyAttempts, .tooManyRefusedRedirects, .invalidEmail,
        .tooManyRegisteredDevices, .maxSecurityTokens,
    ] + GrantKind.allCases.map { .grantNotOffered($0) }
}

extension DPoPError: RecordValue {
    var json: JSONValue {
        switch self {
        case .keyRecordUnreadable(let reason): .tagged("keyRecordUnreadable", ["reason": reason])
        case .keyRecordWrongCurve(let curve): .tagged("keyRecordWrongCurve", ["curve": curve])
        case .cryptoFailed(let reason): .tagged("cryptoFailed", ["reason": reason])
        case .storeFailed(let reason): .tagged("storeFailed", ["reason": reason])
        case .invalidTargetURL: .tagged("invalidTargetURL")
        case .thumbprintUnavailable(let reason): .tagged("thumbprintUnavailable", ["reason": reason])
        case .invalidNonce(let reason): .tagged("invalidNonce", ["reason": reason])
        case .notOffered: .tagged("notOffered")
        case .unboundTokenIssued: .tagged("unboundTokenIssued")
        case .boundTokenWithoutProof: .tagged("boundTokenWithoutProof")
        }
    }

    init(json: JSONValue) throws(JSONFields.Damaged) {
        let (name, fields) = try JSONFields.tagged(json)
        switch name {
        case "keyRecordUnreadable": self = .keyRecordUnreadable(reason: try fields.value("reason"))
        case "keyRecordWrongCurve": self = .keyRecordWrongCurve(curve: try fields.value("curve"))
        case "cryptoFailed": self = .cryptoFailed(reason: try fields.value("reason"))
        case "storeFailed": self = .storeFailed(reason: try fields.value("reason"))
        case "invalidTargetURL": self = .invalidTargetURL
        case "thumbprintUnavailable": self = .thumbprintUnavailable(reason: try fields.value("reason"))
        case "invalidNonce": self = .invalidNonce(reason: try fields.value("reason"))
        case "notOffered": self = .notOffered
        case "unboundTokenIssued": self = .unboundTokenIssued
        case "boundTokenWithoutProof": self = .boundTokenWithoutProof
        default: throw JSONFields.Damaged()
        }
    }
}
