import Foundation
import RegState

/// Playing the user of a sign-in on another device (RFC 8628): what a person does on the verification page with the
/// code the device shows, and what a test inspects afterwards. Each action takes the world file's lock and reloads it
/// first, so a CLI run polling in another process sees it.
extension Simulator {
    /// The user signs in as `email` on the verification page, types `userCode` and approves; the device's polls
    /// answer `authorization_pending` `afterPolls` more times (a user who takes a while), then the tokens.
    ///
    /// - Throws: ``SimulatorError/unknownUserCode`` when no device authorization has that code.
    public func approveDeviceAuthorization(userCode: String, as email: String, afterPolls: Int = 0) throws {
        try changingDeviceAuthorization(userCode: userCode) { record, simulator in
            record.approvedSubject = simulator.signIn(email: email).subject
            record.denied = false
            record.pendingPollsBeforeDecision = max(0, afterPolls)
        }
    }

    /// The user types `userCode` and denies; the polls answer `access_denied` after `afterPolls` more pending ones.
    ///
    /// - Throws: ``SimulatorError/unknownUserCode``.
    public func denyDeviceAuthorization(userCode: String, afterPolls: Int = 0) throws {
        try changingDeviceAuthorization(userCode: userCode) { record, _ in
            record.denied = true
            record.approvedSubject = nil
            record.pendingPollsBeforeDecision = max(0, afterPolls)
        }
    }

    /// The code expires now (as if its `expires_in` had passed): the next poll answers `expired_token`.
    ///
    /// - Throws: ``SimulatorError/unknownUserCode``.
    public func expireDeviceAuthorization(userCode: String) throws {
        let now = clock.now()
        try changingDeviceAuthorization(userCode: userCode) { record, _ in record.expiresAt = now }
    }

    /// The next `count` polls of `userCode`'s authorization answer `slow_down` (each adding 5 s to its interval),
    /// whatever their pace.
    ///
    /// - Throws: ``SimulatorError/unknownUserCode``.
    public func slowDownDevicePolls(userCode: String, count: Int) throws {
        try changingDeviceAuthorization(userCode: userCode) { record, _ in record.slowDownsOwed += max(0, count) }
    }

    /// Sets whether the provider offers the device authorization grant, the interval it announces (`nil`: none) and
    /// whether it sends `verification_uri_complete`.
    public func setDeviceAuthorization(offered: Bool = true, interval: TimeInterval? = 5, sendsCompleteURI: Bool = true,
                                       lifetime: TimeInterval? = nil) {
        configuration.offersDeviceAuthorization = offered
        configuration.deviceInterval = interval
        configuration.sendsVerificationURIComplete = sendsCompleteURI
        if let lifetime { configuration.deviceCodeLifetime = lifetime }
    }

    /// When each poll of `userCode`'s authorization arrived, oldest first (empty when the code is unknown).
    public func devicePolls(userCode: String) -> [Date] {
        guard let key = try? deviceAuthorizationKey(userCode: userCode) else { return [] }
        return world.deviceAuthorizations?[key]?.polls ?? []
    }

    /// How many token answers `userCode`'s authorization gave (at most one).
    public func deviceTokenAnswers(userCode: String) -> Int {
        guard let key = try? deviceAuthorizationKey(userCode: userCode) else { return 0 }
        return world.deviceAuthorizations?[key]?.tokenAnswers ?? 0
    }

    /// The user codes of every device authorization issued and not yet forgotten, oldest first.
    public var deviceUserCodes: [String] {
        (world.deviceAuthorizations ?? [:]).values.sorted { $0.expiresAt < $1.expiresAt }.map(\.userCode)
    }

    private func changingDeviceAuthorization(userCode: String,
                                             _ change: (inout DeviceAuthorizationRecord, isolated Simulator) -> Void) throws {
        let transaction = try file?.lock()
        defer { transaction?.unlock() }
        try reloadIfChanged()
        let key = try deviceAuthorizationKey(userCode: userCode)
        guard var record = world.deviceAuthorizations?[key] else { throw SimulatorError.unknownUserCode }
        change(&record, self)
        world.deviceAuthorizations?[key] = record
        try persistIfChanged()
    }
}
