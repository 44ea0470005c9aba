import Foundation

/// The step-up grant over this runner's provider client, token service, DPoP context and clock.
extension EffectRunner {
    /// The grant.
    var stepUpGrant: StepUpGrant {
        StepUpGrant(provider: provider, tokens: tokens, dpop: dpop, clock: dependencies.clock, logger: logger,
                    configuration: configuration)
    }
}
