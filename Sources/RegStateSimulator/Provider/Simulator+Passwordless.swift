import Foundation
import RegState

/// Passwordless email in Auth0's shape: `POST <issuer>/passwordless/start` sends a six-digit code to the inbox, and
/// the token endpoint's `http://auth0.com/oauth/grant-type/passwordless/otp` grant exchanges it for tokens.
///
/// Start: JSON `{"client_id", "connection": "email", "email", "send": "code"}` → `200 {"_id", "email",
/// "email_verified"}`; a new start (a resend) replaces the previous code, which then answers as superseded. More than
/// ``SimulatorConfiguration/maxOTPSendsPerMinute`` starts within a minute answer `429 too_many_requests` with
/// `Retry-After`. Grant errors are `403 invalid_grant` with Auth0's descriptions: a wrong code, an expired one, a
/// used one, a superseded one; after ``SimulatorConfiguration/maxOTPAttempts`` wrong attempts the code is burned and
/// every later try answers Auth0's "maximum number of attempts" until a new code is sent.
extension Simulator {
    /// `POST /passwordless/start`.
    func passwordlessStart(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let body = request.body, let json = (try? JSONValue.parse(body))?.objectValue else {
            return ServerResponse.oauthError(400, "bad.request", "The body must be a JSON object.")
        }
        guard json["client_id"]?.stringValue == configuration.clientID else {
            return ServerResponse.oauthError(400, "bad.client_id", "Missing or unknown client_id.")
        }
        guard json["connection"]?.stringValue == "email" else {
            return ServerResponse.oauthError(400, "bad.connection", "Only the email connection is supported.")
        }
        guard (json["send"]?.stringValue ?? "code") == "code" else {
            return ServerResponse.oauthError(400, "bad.send", "Only send: code is supported.")
        }
        guard let email = json["email"]?.stringValue, EmailAddress.isValid(email) else {
            return ServerResponse.oauthError(400, "bad.email", "Invalid email address.")
        }
        let address = email.lowercased()
        let now = clock.now()
        let previous = world.otps[address]
        let recent = (previous?.sentAt ?? []).filter { now.timeIntervalSince($0) < 60 }
        if recent.count >= configuration.maxOTPSendsPerMinute, let oldest = recent.min() {
            let wait = max(1, Int((60 - now.timeIntervalSince(oldest)).rounded(.up)))
            var response = ServerResponse.oauthError(429, "too_many_requests", "Too many codes requested. Try again later.")
            response.headers["Retry-After"] = String(wait)
            return response
        }
        let code = try mint.oneTimeCode()
        let expiresAt = now.addingTimeInterval(configuration.otpLifetime)
        var record = OneTimeCodeRecord(code: code, expiresAt: expiresAt)
        record.superseded = Array(((previous?.superseded ?? []) + [previous?.code].compactMap { $0 }).suffix(10))
        record.sentAt = recent + [now]
        world.otps[address] = record
        world.inbox[address, default: []].append(code)
        return .json(200, ["_id": .string(nextIdentifier("otp-")), "email": .string(address), "email_verified": false])
    }

    /// `grant_type=http://auth0.com/oauth/grant-type/passwordless/otp`.
    func passwordlessGrant(_ form: [String: String], jkt: String?) throws -> HTTPResponse {
        guard let username = form["username"], !username.isEmpty, let otp = form["otp"], !otp.isEmpty else {
            return ServerResponse.oauthError(400, "invalid_request", "The username and otp parameters are required.")
        }
        guard (form["realm"] ?? "email") == "email" else {
            return ServerResponse.oauthError(400, "invalid_request", "Only the email realm is supported.")
        }
        let address = username.lowercased()
        let wrong = ServerResponse.oauthError(403, "invalid_grant", "Wrong email or verification code.")
        guard let record = world.otps[address] else { return wrong }
        guard !record.burned else {
            return ServerResponse.oauthError(403, "invalid_grant",
                                             "You've reached the maximum number of attempts. Please try to login again.")
        }
        guard record.code == otp else {
            if record.superseded?.contains(otp) == true {
                return ServerResponse.oauthError(403, "invalid_grant", "The verification code was superseded by a newer one.")
            }
            world.otps[address]?.failedAttempts += 1
            guard record.failedAttempts + 1 < configuration.maxOTPAttempts else {
                world.otps[address]?.burned = true
                return ServerResponse.oauthError(403, "invalid_grant",
                                                 "You've reached the maximum number of attempts. Please try to login again.")
            }
            return wrong
        }
        guard !record.used else {
            return ServerResponse.oauthError(403, "invalid_grant", "The verification code has already been used.")
        }
        let now = clock.now()
        guard record.expiresAt > now else {
            return ServerResponse.oauthError(403, "invalid_grant", "The verification code has expired.")
        }
        world.otps[address]?.used = true
        let user = signIn(email: address)
        let familyID = nextIdentifier("family-")
        world.families[familyID] = TokenFamily(
            subject: user.subject, clientID: configuration.clientID, scope: Self.grantedScope(form["scope"]),
            authTime: now, jkt: jkt)
        return try tokenResponse(familyID: familyID, user: user, nonce: nil)
    }
}
