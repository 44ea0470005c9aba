import Foundation
import RegState

/// Seed 002's Check Registration on the simulated backend: "One test of whether or not the Access Token is valid occurs
/// on the back-end (Check Registration API). Using this Access Token to inquire userinfo from the 3rd-party site is
/// also how the back-end picks up the profile information."
///
/// `GET /v1/check-registration` with `Authorization: Bearer <the provider's access token>`:
/// - the backend asks the provider's userinfo with that token (here: the simulator's own userinfo, so unknown,
///   expired, revoked and DPoP-bound tokens are refused exactly as userinfo refuses them);
/// - `200 {"registered": <bool>, "profile": {"sub", "email", "name", "registration_type" | null}}`: the profile is the
///   userinfo claims; when the user is registered, the backend's stored profile takes the new email and name;
/// - `401 {"error": "invalid_token"}` when userinfo refused the token.
extension Simulator {
    /// `GET /v1/check-registration`.
    func checkRegistration(_ request: HTTPRequest) -> HTTPResponse {
        checkRegistrationCount += 1
        let answer = userinfo(request)
        guard answer.status == 200, let claims = answer.jsonBody?.objectValue,
              let subject = claims["sub"]?.stringValue, !subject.isEmpty
        else { return ServerResponse.backendError(401, "invalid_token") }
        let email = claims["email"]?.stringValue
        let name = claims["name"]?.stringValue
        if var profile = world.profiles[subject] {
            if let email { profile.email = email }
            if let name { profile.name = name }
            world.profiles[subject] = profile
        }
        let stored = world.profiles[subject]
        return .json(200, [
            "registered": .bool(stored != nil),
            "profile": [
                "sub": .string(subject), "email": email.map(JSONValue.string) ?? .null,
                "name": name.map(JSONValue.string) ?? .null,
                "registration_type": stored.map { .string($0.registrationType) } ?? .null,
            ],
        ])
    }
}
