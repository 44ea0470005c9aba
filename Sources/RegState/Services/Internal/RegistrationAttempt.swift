import Foundation

/// What the service remembers in memory about the registration in progress: the social login this process began
/// (its secrets; the secure store keeps it for a relaunch), the wrong codes typed for the current one-time code, and
/// the ID token of a confirmation refused at the device limit (for the device list).
struct RegistrationAttempt {
    /// The social login this process began, beside its state.
    var login: PendingLogin?
    /// Wrong codes typed for the current one-time code (reset by every code sent).
    private(set) var wrongCodes = 0
    /// The ID token a confirmation refused at the device limit answered with, in memory only.
    var deviceListIDToken: String?
    /// The user code of the device authorization this process started or took up (the store keeps its secret).
    var deviceUserCode: String?
    /// The poll of that authorization while it runs: cancelled when the attempt ends.
    var devicePoll: Task<MachineEvent?, Never>?

    /// The attempt ends: the poll stops at once; the user code of the authorization to forget, if this process held one.
    mutating func endDeviceAuthorization() -> String? {
        devicePoll?.cancel()
        devicePoll = nil
        defer { deviceUserCode = nil }
        return deviceUserCode
    }

    /// A new one-time code was sent: the count starts again.
    mutating func codeSent() { wrongCodes = 0 }

    /// A wrong code was typed; whether that was the last one allowed (`limit`).
    mutating func wrongCodeTyped(limit: Int) -> Bool {
        wrongCodes += 1
        return wrongCodes >= limit
    }
}
