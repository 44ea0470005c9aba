import Foundation

/// The form Swift's synthesized coding gave every case (`{"case":{"_0":…}}`), which journals hold; a grant that is
/// not offered keeps the name its case had before it was generic (`<grant>NotOffered`).
extension RegistrationFailure: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { nil }
    }

    /// The cases without a value, by name.
    private static let plain: [String: RegistrationFailure] = [
        "stateMismatch": .stateMismatch, "noPendingLogin": .noPendingLogin,
        "loginAlreadyInProgress": .loginAlreadyInProgress, "pendingLoginExpired": .pendingLoginExpired,
        "pendingLoginSuperseded": .pendingLoginSuperseded, "issuerMismatchInCallback": .issuerMismatchInCallback,
        "authTimeMissing": .authTimeMissing, "stepUpAnotherUser": .stepUpAnotherUser, "wrongCode": .wrongCode,
        "codeExpired": .codeExpired, "codeReused": .codeReused, "codeSuperseded": .codeSuperseded,
        "tooManyAttempts": .tooManyAttempts, "tooManyRefusedRedirects": .tooManyRefusedRedirects,
        "invalidEmail": .invalidEmail, "deviceCodeExpired": .deviceCodeExpired,
        "tooManyRegisteredDevices": .tooManyRegisteredDevices, "maxSecurityTokens": .maxSecurityTokens,
    ].merging(GrantKind.allCases.map { ("\($0.rawValue)NotOffered", .grantNotOffered($0)) }) { first, _ in first }

    /// The cases whose value is one string.
    private static let texts: [String: @Sendable (String) -> RegistrationFailure] = [
        "discoveryFailed": { .discoveryFailed($0) }, "providerUnreachable": { .providerUnreachable($0) },
        "pushedAuthorizationUnavailable": { .pushedAuthorizationUnavailable($0) },
        "malformedCallback": { .malformedCallback($0) }, "malformedResponse": { .malformedResponse($0) },
        "invalidIDToken": { .invalidIDToken($0) }, "backendFailed": { .backendFailed($0) },
        "storage": { .storage($0) }, "unsupported": { .unsupported($0) },
    ]

    /// Reads the synthesized form.
    public init(from decoder: any Decoder) throws {
        let outer = try decoder.container(keyedBy: Key.self)
        guard outer.allKeys.count == 1, let name = outer.allKeys.first else {
            throw DecodingError.typeMismatch(Self.self, .init(codingPath: outer.codingPath, debugDescription:
                "Invalid number of keys found, expected one."))
        }
        let value = try outer.nestedContainer(keyedBy: Key.self, forKey: name)
        func text(_ key: String) throws -> String { try value.decode(String.self, forKey: Key(key)) }
        if let plain = Self.plain[name.stringValue] {
            self = plain
        } else if let make = Self.texts[name.stringValue] {
            self = make(try text("_0"))
        } else {
            switch name.stringValue {
            case "transient": self = .transient(try value.decode(TransientIssue.self, forKey: Key("_0")), detail: try text("detail"))
            case "pushedAuthorizationRefused", "authorizationDenied", "tokenRequestFailed":
                let (error, description) = (try text("error"), try value.decodeIfPresent(String.self, forKey: Key("description")))
                self = name.stringValue == "authorizationDenied" ? .authorizationDenied(error: error, description: description)
                    : name.stringValue == "tokenRequestFailed" ? .tokenRequestFailed(error: error, description: description)
                    : .pushedAuthorizationRefused(error: error, description: description)
            case "signInTooOld": self = .signInTooOld(authenticatedAt: try value.decode(Date.self, forKey: Key("authenticatedAt")))
            case "acrNotAccepted": self = .acrNotAccepted(try value.decodeIfPresent(String.self, forKey: Key("_0")))
            case "rateLimited": self = .rateLimited(retryAfter: try value.decodeIfPresent(Int.self, forKey: Key("retryAfter")))
            case "dpop": self = .dpop(try value.decode(DPoPError.self, forKey: Key("_0")))
            default:
                throw DecodingError.dataCorruptedError(forKey: name, in: outer, debugDescription: "Unknown failure \(name.stringValue)")
            }
        }
    }

    /// Writes the synthesized form.
    public func encode(to encoder: any Encoder) throws {
        var outer = encoder.container(keyedBy: Key.self)
        if let name = Self.plain.first(where: { $0.value == self })?.key {
            _ = outer.nestedContainer(keyedBy: Key.self, forKey: Key(name))
            return
        }
        let name: String, values: [(String, (any Encodable)?)]
        switch self {
        case .discoveryFailed(let text), .providerUnreachable(let text), .pushedAuthorizationUnavailable(let text),
             .malformedCallback(let text), .malformedResponse(let text), .invalidIDToken(let text), .backendFailed(let text),
             .storage(let text), .unsupported(let text):
            name = Self.texts.first { $0.value(text) == self }?.key ?? ""
            values = [("_0", text)]
        case .transient(let issue, let detail): (name, values) = ("transient", [("_0", issue), ("detail", detail)])
        case .pushedAuthorizationRefused(let error, let description):
            (name, values) = ("pushedAuthorizationRefused", [("error", error), ("description", description)])
        case .authorizationDenied(let error, let description):
            (name, values) = ("authorizationDenied", [("error", error), ("description", description)])
        case .tokenRequestFailed(let error, let description):
            (name, values) = ("tokenRequestFailed", [("error", error), ("description", description)])
        case .signInTooOld(let date): (name, values) = ("signInTooOld", [("authenticatedAt", date)])
        case .acrNotAccepted(let acr): (name, values) = ("acrNotAccepted", [("_0", acr)])
        case .rateLimited(let seconds): (name, values) = ("rateLimited", [("retryAfter", seconds)])
        case .dpop(let error): (name, values) = ("dpop", [("_0", error)])
        default: preconditionFailure("every case without a value is in `plain`")
        }
        var value = outer.nestedContainer(keyedBy: Key.self, forKey: Key(name))
        for case (let key, let member?) in values { try value.encode(member, forKey: Key(key)) }
    }
}
