/// The one source of randomness of a simulated run: SplitMix64, seeded, so one seed replays the same run.
///
/// Every choice the simulation makes (which action, which fault, which ready job runs next, how far the clock
/// jumps) draws from one of these; nothing else in a run is random.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }

    /// `true` with probability `percent`/100.
    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// A derived generator for one concern (network, disk, scheduling), so that drawing more for one concern does
    /// not shift the choices of another.
    public mutating func split() -> SeededRandom { SeededRandom(seed: next()) }
}
