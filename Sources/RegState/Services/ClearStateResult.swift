import Foundation

/// What ``RegStateService/clearState()`` did: the local keys it removed (always everything it keeps) and what became
/// of this installation's registration at the backend.
public struct ClearStateResult: Sendable, Equatable {
    /// The secure-store keys that were removed (the journal is emptied as well).
    public var removedKeys: [String]
    /// Whether the backend forgot this installation, and if not, why.
    public var installation: InstallationDeregistration
    /// Why the local records remain (the store stayed locked by another process, or a removal failed); `nil` when
    /// everything local was removed. The next launch finds them: call ``RegStateService/clearState()`` again.
    public var credentialsRemain: StoreError?
}

/// What a clear-state did about this installation at the registration backend (`DELETE /v1/installation`); local
/// state is cleared in every case.
public enum InstallationDeregistration: Sendable, Equatable {
    /// The backend removed the installation and its security tokens: the device slot is free.
    case deregistered
    /// No backend is configured: there was nothing to deregister.
    case noBackend
    /// No security token was stored, so this device held no registration the backend could be asked to remove.
    case notRegistered
    /// The backend could not be reached: the installation is still registered there (remove it from another device's
    /// device list, or it closes when its security tokens expire).
    case offline(TransientIssue)
    /// The backend refused the request: with ``BackendError/unauthorized`` (an expired security token) the
    /// installation may still be registered there; with ``BackendError/forcedLogout`` the backend had already ended it.
    case refused(BackendError)

    /// Whether the installation may still be registered at the backend.
    public var mayStillBeRegistered: Bool {
        switch self {
        case .offline: true
        case .refused(let error): error != .forcedLogout
        case .deregistered, .noBackend, .notRegistered: false
        }
    }

    /// A stable name for scripts and JSON: `deregistered`, `noBackend`, `notRegistered`, `offline`, `refused`.
    public var name: String {
        switch self {
        case .deregistered: "deregistered"
        case .noBackend: "noBackend"
        case .notRegistered: "notRegistered"
        case .offline: "offline"
        case .refused: "refused"
        }
    }
}

extension InstallationDeregistration: CustomStringConvertible {
    /// A sentence for people; never contains a token.
    public var description: String {
        switch self {
        case .deregistered:
            "The backend removed this installation."
        case .noBackend:
            "No backend is configured, so there was no installation to remove there."
        case .notRegistered:
            "No security token was stored, so the backend held no installation of this device to remove."
        case .offline(let issue):
            "The installation is still registered at the backend (\(issue == .noInternet ? "offline" : "the backend did not answer")): remove it from the device list, or it closes when its security token expires."
        case .refused(.forcedLogout):
            "The backend had already ended this installation's session (forced logout)."
        case .refused(let error):
            "The installation may still be registered at the backend: it refused to remove it (\(error.errorDescription ?? "refused"))."
        }
    }
}
