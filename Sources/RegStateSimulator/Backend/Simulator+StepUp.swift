import Foundation
import RegState

/// The host API demanding a recent or strong sign-in (RFC 9470): resources under a path prefix answer a live access
/// token whose sign-in does not meet the demand with `401` and
/// `WWW-Authenticate: Bearer error="insufficient_user_authentication", acr_values="…", max_age=…` (`DPoP` for a
/// DPoP-bound token), as an API checks the `auth_time` and `acr` its tokens carry.
extension Simulator {
    /// Makes the resources under `prefix` (a path under the backend URL, e.g. `/v1/resource/payments`) demand a
    /// sign-in that meets `requirement`: within its `max_age` and, when it names `acr_values`, of one of them.
    public func demandSignIn(_ requirement: AuthenticationRequirement, atResourcesUnder prefix: String) {
        resourceDemands[prefix] = requirement
    }

    /// Stops every demand of ``demandSignIn(_:atResourcesUnder:)``.
    public func stopDemandingSignIn() { resourceDemands = [:] }

    /// The `401` challenge for a request to `path` whose token's sign-in does not meet the demand there, else `nil`.
    func stepUpChallenge(for request: HTTPRequest, path: String) -> HTTPResponse? {
        guard var demand = resourceDemands.filter({ path.hasPrefix($0.key) }).max(by: { $0.key.count < $1.key.count })?.value,
              let (scheme, token) = ServerResponse.authorization(of: request),
              let record = world.accessTokens[mint.storageKey(token)], let family = world.families[record.familyID]
        else { return nil }
        demand.acrRequired = true  // an API that names classes checks them
        let signIn = SignInAssurance(authenticatedAt: family.authTime, acr: family.acr)
        guard !signIn.meets(demand, at: clock.now()) else { return nil }
        var parameters = ["error=\"insufficient_user_authentication\"",
                          "error_description=\"A more recent or stronger sign-in is required\""]
        if !demand.acrValues.isEmpty { parameters.append("acr_values=\"\(demand.acrValues.joined(separator: " "))\"") }
        if let maxAge = demand.maxAge { parameters.append("max_age=\(maxAge)") }
        let challengeScheme = scheme.caseInsensitiveCompare("DPoP") == .orderedSame ? "DPoP" : "Bearer"
        return HTTPResponse(status: 401, headers: ["WWW-Authenticate": "\(challengeScheme) " + parameters.joined(separator: ", "),
                                                   "Content-Type": "application/json"],
                            body: Data(#"{"error":"insufficient_user_authentication"}"#.utf8))
    }
}
