import Foundation

/// What a renewal's task landed with: its flight, the answer for its callers, the event that applies it, and whether
/// it cut a stored transient hold short; `applied`, once settled.
struct RenewalLanding: Sendable {
    let kind: TokenCarrier
    let generation: Int
    let answer: RenewalAnswer
    let event: MachineEvent?
    let cut: Bool
    var applied: Applied?

    init(_ kind: TokenCarrier, _ generation: Int, _ answer: RenewalAnswer, event: MachineEvent?, cut: Bool) {
        (self.kind, self.generation, self.answer, self.event, self.cut) = (kind, generation, answer, event, cut)
    }
}
