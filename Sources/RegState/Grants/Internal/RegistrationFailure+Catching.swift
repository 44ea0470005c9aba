import Foundation

/// The grants' one catch: a typed error thrown on as the registration failure it means, without a cast.
extension RegistrationFailure {
    /// `body`'s value; its error thrown as the failure it means (``RegistrationFailureCause``).
    static func catching<T, Cause: RegistrationFailureCause>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws(Cause) -> T
    ) async throws(RegistrationFailure) -> T {
        do {
            return try await body()
        } catch {
            throw error.registrationFailure
        }
    }

    /// `body`'s value, or the failure it threw.
    static func result<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws(RegistrationFailure) -> T
    ) async -> Result<T, RegistrationFailure> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
