import Foundation

extension RegStateService {
    /// Whether to offer sign-in with an emailed code: asks the provider's discovery (read once and cached; no state
    /// changes, nothing journaled). Show the email option only when ``PasswordlessAvailability/mayOffer`` is true, and
    /// say ``PasswordlessAvailability/reason`` otherwise.
    public func passwordlessAvailability() async -> PasswordlessAvailability {
        await PasswordlessGrant(provider: runner.provider).availability()
    }
}
