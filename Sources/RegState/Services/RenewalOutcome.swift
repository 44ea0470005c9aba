import Foundation

/// What ``RenewalService/grant(replacing:forRejection:lastCut:)`` answers: the one outcome type of a grant.
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

    /// The grant ran (or was held, or failed before it was sent): its result.
    case ran(Result)
    /// Another flight (another process sharing the store, say) already replaced the stale token; no request was made.
    case alreadyRenewed(StoredSession, AccessCredential?)

    /// The event that applies the result: the grant's, and the stored session when another flight already renewed
    /// the token — nobody else will settle the machine that asked, so without it a launch would end unsettled.
    package var event: MachineEvent {
        switch self {
        case .alreadyRenewed(let session, _): .renewalSucceeded(session)
        case .ran(let result):
            switch result.outcome {
            case .success(let stored): .renewalSucceeded(stored)
            case .failure(let failure): .renewalFailed(failure, stored: result.stored)
            }
        }
    }

    /// What the callers get: the renewed credential (`nil` when none is at hand), or why renewal failed.
    var answer: Swift.Result<AccessCredential?, RegStateServiceError> {
        switch self {
        case .ran(let result):
            switch result.outcome {
            case .success: .success(result.credential)
            case .failure(let failure): .failure(RegStateServiceError(failure))
            }
        case .alreadyRenewed(_, let credential): .success(credential)
        }
    }
}
