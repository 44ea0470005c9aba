import Foundation

/// What ``RenewalService/renew(replacing:)`` answers: the one outcome type of a renewal request.
package enum RenewalOutcome: Sendable, Equatable {
    /// The result of one grant: the new session summary or why renewal failed, what is stored afterwards, and the
    /// renewed credential, built from the record the grant wrote (or found) so that nobody reads the store for it.
    package struct Result: Sendable, Equatable {
        /// The new session summary, or why renewal failed.
        package var outcome: Swift.Result<StoredSession, RenewalFailure>
        /// What is stored after the attempt.
        package var stored: StoredSession?
        /// The usable credential after a successful grant; `nil` after a failure, or when the DPoP key that must
        /// sign for the renewed token was not at hand (the caller then reads the record).
        package var credential: AccessCredential?

        init(_ outcome: Swift.Result<StoredSession, RenewalFailure>, stored: StoredSession?,
             credential: AccessCredential? = nil) {
            self.outcome = outcome
            self.stored = stored
            self.credential = credential
        }

        /// A failure, with what is stored.
        static func failure(_ failure: RenewalFailure, stored: StoredSession?) -> Result {
            Result(.failure(failure), stored: stored)
        }
    }

    /// This call ran the grant: it, and no other caller, applies the result.
    case ran(Result)
    /// This call joined a grant another caller ran (and applies).
    case joined(Result)
    /// Another flight (another process sharing the store, say) already replaced the stale token; no request was made.
    case alreadyRenewed(StoredSession, AccessCredential?)

    /// The event that applies the result, for the caller that ran the grant; `nil` for everyone else.
    package var event: MachineEvent? {
        guard case .ran(let result) = self else { return nil }
        switch result.outcome {
        case .success(let stored): return .renewalSucceeded(stored)
        case .failure(let failure): return .renewalFailed(failure, stored: result.stored)
        }
    }

    /// The event the ``Effect/renew(replacing:)`` effect applies: ``event`` when it ran the grant, and the stored
    /// session when another flight already renewed the token — nobody else will settle the machine that asked, so
    /// without it a launch would end unsettled.
    package var effectEvent: MachineEvent? {
        if case .alreadyRenewed(let session, _) = self { return .renewalSucceeded(session) }
        return event
    }

    /// What the caller gets: the renewed credential (`nil` when none is at hand), or why renewal failed.
    package var answer: Swift.Result<AccessCredential?, RenewalFailure> {
        switch self {
        case .ran(let result), .joined(let result):
            switch result.outcome {
            case .success: return .success(result.credential)
            case .failure(let failure): return .failure(failure)
            }
        case .alreadyRenewed(_, let credential):
            return .success(credential)
        }
    }
}
