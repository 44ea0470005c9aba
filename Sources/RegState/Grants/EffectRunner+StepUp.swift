import Foundation

/// The step-up grant over this runner.
extension EffectRunner {
    /// The grant.
    var stepUpGrant: StepUpGrant { StepUpGrant(runner: self) }
}
