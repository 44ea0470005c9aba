import Foundation
import RegState

/// The device authorization grant (RFC 8628) at `POST <issuer>/oauth/device/code` (Auth0's path) and the token
/// endpoint's `urn:ietf:params:oauth:grant-type:device_code` grant, with the user played through
/// ``approveDeviceAuthorization(userCode:as:afterPolls:)``, ``denyDeviceAuthorization(userCode:afterPolls:)`` and
/// ``expireDeviceAuthorization(userCode:)``.
///
/// The answer: `device_code`, an eight-letter `user_code` (`ABCD-EFGH`), `verification_uri` (`<issuer>/activate`),
/// `verification_uri_complete` (unless ``SimulatorConfiguration/sendsVerificationURIComplete`` is off), `expires_in`
/// (``SimulatorConfiguration/deviceCodeLifetime``) and `interval` (``SimulatorConfiguration/deviceInterval``, or
/// none). Polls answer `authorization_pending` until the user decides, `slow_down` (adding 5 s to the interval) when
/// one comes sooner than the interval in force or when owed (``slowDownDevicePolls(userCode:count:)``),
/// `access_denied`, `expired_token` after the expiry, and the tokens once: a used device code is `invalid_grant`.
extension Simulator {
    /// The grant type of the device code polls.
    static let deviceCodeGrantType = "urn:ietf:params:oauth:grant-type:device_code"

    /// `POST /oauth/device/code`.
    func deviceAuthorizationEndpoint(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = request.formParameters
        guard form["client_id"] == configuration.clientID else {
            return ServerResponse.oauthError(401, "invalid_client", "Unknown client.")
        }
        let deviceCode = try mint.opaqueToken()
        let userCode = try Self.userCode(try mint.crypto.randomBytes(count: 8))
        let now = clock.now()
        let interval = configuration.deviceInterval ?? 5
        var records = world.deviceAuthorizations ?? [:]
        // Expired authorizations are forgotten after a day.
        records = records.filter { now.timeIntervalSince($0.value.expiresAt) < 86_400 }
        records[mint.storageKey(deviceCode)] = DeviceAuthorizationRecord(
            userCode: userCode, clientID: configuration.clientID, scope: Self.grantedScope(form["scope"]),
            expiresAt: now.addingTimeInterval(configuration.deviceCodeLifetime), interval: interval)
        world.deviceAuthorizations = records
        let page = configuration.issuerIdentifier + "/activate"
        var body: [String: JSONValue] = [
            "device_code": .string(deviceCode),
            "user_code": .string(userCode),
            "verification_uri": .string(page),
            "expires_in": .number(configuration.deviceCodeLifetime.rounded()),
        ]
        if configuration.sendsVerificationURIComplete {
            body["verification_uri_complete"] = .string(page + "?user_code=" + FormEncoding.escape(userCode))
        }
        if let announced = configuration.deviceInterval { body["interval"] = .number(announced) }
        return .json(200, .object(body))
    }

    /// `grant_type=urn:ietf:params:oauth:grant-type:device_code`.
    func deviceCodeGrant(_ form: [String: String], jkt: String?) throws -> HTTPResponse {
        guard let deviceCode = form["device_code"], !deviceCode.isEmpty else {
            return ServerResponse.oauthError(400, "invalid_request", "The device_code parameter is required.")
        }
        let key = mint.storageKey(deviceCode)
        guard var record = world.deviceAuthorizations?[key], record.clientID == form["client_id"] else {
            return ServerResponse.oauthError(400, "invalid_grant", "The device code is invalid.")
        }
        defer { world.deviceAuthorizations?[key] = record }
        let now = clock.now()
        let previous = record.polls.last
        record.polls.append(now)
        guard !record.redeemed else {
            return ServerResponse.oauthError(400, "invalid_grant", "The device code has already been used.")
        }
        guard now < record.expiresAt else {
            return ServerResponse.oauthError(400, "expired_token", "The device code has expired.")
        }
        let tooSoon = previous.map { now.timeIntervalSince($0) < record.interval } ?? false
        if tooSoon || record.slowDownsOwed > 0 {
            record.slowDownsOwed = max(0, record.slowDownsOwed - 1)
            record.interval += 5
            return ServerResponse.oauthError(400, "slow_down", "Polling too fast: wait \(Int(record.interval)) s.")
        }
        if record.pendingPollsBeforeDecision > 0 || (record.approvedSubject == nil && !record.denied) {
            record.pendingPollsBeforeDecision = max(0, record.pendingPollsBeforeDecision - 1)
            return ServerResponse.oauthError(400, "authorization_pending", "The user has not approved yet.")
        }
        if record.denied {
            return ServerResponse.oauthError(400, "access_denied", "The user denied the request.")
        }
        guard let user = world.users.values.first(where: { $0.subject == record.approvedSubject }) else {
            return ServerResponse.oauthError(400, "invalid_grant", "The approving user no longer exists.")
        }
        record.redeemed = true
        record.tokenAnswers += 1
        let familyID = nextIdentifier("family-")
        world.families[familyID] = TokenFamily(subject: user.subject, clientID: record.clientID, scope: record.scope,
                                               authTime: now, jkt: jkt)
        return try tokenResponse(familyID: familyID, user: user, nonce: nil)
    }

    /// Eight letters from an alphabet without vowels or look-alikes (RFC 8628 §6.1), as `ABCD-EFGH`.
    static func userCode(_ bytes: Data) throws -> String {
        let alphabet = Array("BCDFGHJKLMNPQRSTVWXZ")
        let letters = bytes.map { alphabet[Int($0) % alphabet.count] }
        return String(letters[0..<4]) + "-" + String(letters[4..<8])
    }

    /// The record whose user code is `userCode` (compared without case and dashes, as a verification page would).
    func deviceAuthorizationKey(userCode: String) throws -> String {
        let wanted = Self.normalizedUserCode(userCode)
        guard let key = world.deviceAuthorizations?.first(where: { Self.normalizedUserCode($0.value.userCode) == wanted })?.key
        else { throw SimulatorError.unknownUserCode }
        return key
    }

    static func normalizedUserCode(_ code: String) -> String {
        code.uppercased().filter { $0.isLetter || $0.isNumber }
    }
}
