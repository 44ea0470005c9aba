import Foundation

/// An error a grant meets that means one registration failure (the mapping in `RegistrationFailure+Mapping`): the
/// store's and the provider's. ``RegistrationFailure/catching(_:)`` is the grants' one catch for them.
protocol RegistrationFailureCause: Error {
    /// The failure this error means.
    var registrationFailure: RegistrationFailure { get }
}

extension OIDCError: RegistrationFailureCause {
    /// ``RegistrationFailure/init(_:)-(OIDCError)``.
    var registrationFailure: RegistrationFailure { RegistrationFailure(self) }
}

extension StoreError: RegistrationFailureCause {
    /// ``RegistrationFailure/init(_:)-(StoreError)``.
    var registrationFailure: RegistrationFailure { RegistrationFailure(self) }
}
