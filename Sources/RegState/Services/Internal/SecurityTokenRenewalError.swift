import Foundation

/// Why a self-mode renewal of the backend security token did not produce one, typed from the backend and the store
/// up to the flight, which tells its callers as a ``RegStateServiceError``.
enum SecurityTokenRenewalError: Error, Equatable {
    /// No confirmed session (or no backend) to renew for.
    case noSession
    /// The backend refused or could not be reached.
    case backend(BackendError)
    /// The store could not be read or written.
    case storage(StoreError)
    /// The provider tokens' renewal, needed first, failed (or the replaced token is held): what the callers are told.
    case authorization(RegStateServiceError)
}
