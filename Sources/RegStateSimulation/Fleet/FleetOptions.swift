import Foundation

/// What one fleet run is (``FleetRun``): how many installs, their tokens and call rhythms, the provider's capacity and
/// its outage, and whether the engines run with RegState's backoff, `Retry-After` and renewal spread or without them
/// (the baseline).
public struct FleetOptions: Sendable, Equatable {
    /// The seed every choice of the run derives from (clock offsets, call rhythms, token ages, the engines' jitter).
    public var seed: UInt64
    /// Engine instances, each a real `RegStateService` with its own store.
    public var installs: Int
    /// The access token's lifetime, seconds.
    public var tokenLifetime: TimeInterval = 3_600
    /// The engines' grace period (the renewal spread is drawn inside it), seconds.
    public var gracePeriod: TimeInterval = 1_800
    /// When the provider goes down (after a token lifetime and a half of running: the steady rate is measured over
    /// the last lifetime before it), seconds of virtual time.
    public var outageStart: TimeInterval = 5_400
    /// How long it stays down.
    public var outageLength: TimeInterval = 600
    /// How long the run goes on after the provider is back: two token lifetimes and a half.
    public var afterRecovery: TimeInterval = 9_000
    /// The provider's capacity at its token endpoint, requests per virtual second; more are answered 503.
    public var capacity: Int = 40
    /// The `Retry-After` of the maintenance page the provider's operators put up (`"back in ten minutes"`), seconds;
    /// `nil`: none (exponential backoff alone, whose herd at recovery docs/Scale.md explains).
    public var outageRetryAfter: Int? = 600
    /// How long into the outage the maintenance page goes up; before it, the provider answers 502 without
    /// `Retry-After` (the outage as the installs first meet it).
    public var maintenancePageAfter: TimeInterval = 120
    /// The shortest and longest time between two API calls of an install's app (each install draws its own).
    public var callPeriod: ClosedRange<TimeInterval> = 10...120
    /// The largest offset of an install's clock from the provider's, seconds (each install draws its own).
    public var clockJitter: TimeInterval = 5
    /// Whether the engines run with backoff, `Retry-After` and spread (`false`: the baseline).
    public var policyOn = true

    /// A run of `installs` installs driven by `seed`.
    public init(seed: UInt64, installs: Int) {
        self.seed = seed
        self.installs = installs
    }

    /// When the provider is back.
    public var recovery: TimeInterval { outageStart + outageLength }
    /// When the run ends.
    public var end: TimeInterval { recovery + afterRecovery }
}
