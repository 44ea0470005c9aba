import Foundation

/// What a renewal's task landed with: its flight, the event that applies it, the answer for its callers, and whether
/// it cut a stored transient hold short.
struct RenewalLanding: Sendable {
    let kind: TokenCarrier
    let generation: Int
    let event: MachineEvent?
    let answer: RenewalAnswer
    let cut: Bool

    init(_ kind: TokenCarrier, _ generation: Int, event: MachineEvent?, answer: RenewalAnswer, cut: Bool = false) {
        (self.kind, self.generation, self.event, self.answer, self.cut) = (kind, generation, event, answer, cut)
    }

    /// The landing of an access-token grant: the event it applies, and for its callers the credential, or the failure
    /// that event reports.
    init(_ generation: Int, grant: (event: MachineEvent, credential: AccessCredential?, cut: Bool)) {
        let answer: RenewalAnswer = if case .renewalFailed(let failure, _) = grant.event {
            .failure(RegStateServiceError(failure))
        } else {
            .success(grant.credential)
        }
        self.init(.accessToken, generation, event: grant.event, answer: answer, cut: grant.cut)
    }
}
