import Foundation

/// A lettered error: **E** (renewal failed) or **F** (registration/authentication failed).
public enum RegStateError: Error, Sendable, Equatable {
    /// **E**: renewing the session failed.
    case renewal(RenewalFailure)
    /// **F**: registration or authentication failed.
    case registration(RegistrationFailure)

    /// `E` (renewal) or `F` (registration): the letter ``RegStateEvent/letter`` gives an error.
    public var letter: Character {
        switch self {
        case .renewal: "E"
        case .registration: "F"
        }
    }

    /// Whether the session survives: only a transient renewal failure keeps it. A registration failure leaves the
    /// app able to start again.
    public var isRecoverable: Bool {
        switch self {
        case .renewal(let failure): failure.isRecoverable
        case .registration: true
        }
    }

    /// A stable, machine-readable code for the reason (`wrong_code`, `transient_no_internet`, ...), for `--json`
    /// output, logs and analytics; it never carries personal data or token material.
    public var reasonCode: String {
        switch self {
        case .renewal(let failure): failure.reasonCode
        case .registration(let failure): failure.reasonCode
        }
    }
}

extension RegStateError: LocalizedError {
    /// The underlying failure's sentence.
    public var errorDescription: String? {
        switch self {
        case .renewal(let failure): failure.errorDescription
        case .registration(let failure): failure.errorDescription
        }
    }
}
