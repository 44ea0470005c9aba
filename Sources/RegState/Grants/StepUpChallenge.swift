import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An API's demand for a more recent or stronger sign-in (RFC 9470): a `401` whose `WWW-Authenticate` says
/// `error="insufficient_user_authentication"`, with the `acr_values` and `max_age` it wants. Nothing is renewed for
/// it, and hostile values are refused, never trimmed (<doc:StepUp>).
public struct StepUpChallenge: Sendable, Equatable, Hashable {
    /// What the API asked for: its `max_age`, and its `acr_values` as required (the API checks them).
    public var requirement: AuthenticationRequirement
    /// The scheme of the challenge, as the API wrote it lowercased: `bearer` or `dpop`.
    public var scheme: String

    /// The most `acr_values` a challenge may list.
    public static let maximumACRValues = 16
    /// The longest single `acr` value, in bytes.
    public static let maximumACRLength = 256
    /// The error code of RFC 9470 §3.
    static let errorCode = "insufficient_user_authentication"

    /// Creates a challenge from its parts.
    public init(requirement: AuthenticationRequirement, scheme: String = "bearer") {
        self.requirement = requirement
        self.scheme = scheme
    }

    /// What a response says about step-up.
    enum Reading: Sendable, Equatable {
        /// Not an RFC 9470 challenge.
        case none
        /// A well-formed challenge.
        case challenge(StepUpChallenge)
        /// It names `insufficient_user_authentication` but its field or values are refused.
        case refused
    }

    /// The step-up challenge of a `401` `response`; `nil` when it is not one or its values are refused.
    public init?(response: HTTPResponse) {
        guard case .challenge(let challenge) = Self.reading(response) else { return nil }
        self = challenge
    }

    /// The step-up challenge of a `401` `response` an app got for a request it sent itself; `nil` otherwise.
    public init?(response: HTTPURLResponse) {
        guard response.statusCode == 401, let field = response.value(forHTTPHeaderField: "WWW-Authenticate"),
              case .challenge(let challenge) = Self.reading(field) else { return nil }
        self = challenge
    }

    /// What `response` says: only a `401` carries a challenge (RFC 9470 §3).
    static func reading(_ response: HTTPResponse) -> Reading {
        guard response.status == 401, let field = response.header("WWW-Authenticate") else { return .none }
        return reading(field)
    }

    /// What a `WWW-Authenticate` field says.
    static func reading(_ field: String) -> Reading {
        guard let challenges = AuthenticationChallenges(field) else {
            return field.utf8.count <= AuthenticationChallenges.maximumLength && field.contains(errorCode) ? .refused : .none
        }
        guard let found = challenges.first(schemes: ["bearer", "dpop"], error: errorCode) else { return .none }
        var requirement = AuthenticationRequirement()
        if let maxAge = found.parameters["max_age"] {
            guard let seconds = Self.seconds(maxAge) else { return .refused }
            requirement.maxAge = seconds
        }
        if let values = found.parameters["acr_values"] {
            guard let acr = Self.acrValues(values) else { return .refused }
            requirement.acrValues = acr
            requirement.acrRequired = true
        }
        return .challenge(StepUpChallenge(requirement: requirement, scheme: found.scheme))
    }

    /// A `max_age`: 1–10 ASCII digits, below 2³¹.
    static func seconds(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard (1...10).contains(bytes.count), bytes.allSatisfy({ (0x30...0x39).contains($0) }),
              let value = Int(text), value < Int(Int32.max) else { return nil }
        return value
    }

    /// `acr_values`: single-space-separated values of printable ASCII other than `"` and `\`.
    static func acrValues(_ text: String) -> [String]? {
        let values = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard !values.isEmpty, values.count <= maximumACRValues else { return nil }
        for value in values {
            let bytes = value.utf8
            guard (1...maximumACRLength).contains(bytes.count),
                  bytes.allSatisfy({ (0x21...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C }) else { return nil }
        }
        return values
    }
}

extension StepUpChallenge: CustomStringConvertible {
    /// What the API asked for, e.g. `step-up (max_age 300, acr_values urn:mfa)`.
    public var description: String {
        var parts: [String] = []
        if let maxAge = requirement.maxAge { parts.append("max_age \(maxAge)") }
        if !requirement.acrValues.isEmpty { parts.append("acr_values \(requirement.acrValues.joined(separator: " "))") }
        return "step-up (\(parts.isEmpty ? "a new sign-in" : parts.joined(separator: ", ")))"
    }
}
