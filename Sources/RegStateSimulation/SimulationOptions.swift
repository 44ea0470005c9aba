import Foundation

/// What one simulated run is: its seed and its size.
public struct SimulationOptions: Sendable, Equatable {
    /// The seed every choice of the run derives from.
    public var seed: UInt64
    /// User and world actions before the heal.
    public var steps: Int
    /// Engine instances sharing the store (an app and its extensions).
    public var processes: Int
    /// What the processes keep their store and journals on: the real file code over a simulated file system, or
    /// the model of the store contract.
    public var storage: SimulatedStorageKind

    /// A run of `steps` actions over `processes` instances, driven by `seed`, on `storage`.
    public init(seed: UInt64, steps: Int = 40, processes: Int = 2, storage: SimulatedStorageKind = .files) {
        self.seed = seed
        self.steps = steps
        self.processes = processes
        self.storage = storage
    }
}

/// What a run found.
public struct SimulationResult: Sendable {
    /// The seed it ran.
    public var seed: UInt64
    /// Every invariant violation, in the order found; empty when the run passed.
    public var violations: [String]
    /// The full trace: actions, requests, faults, events, store writes (tokens only as fingerprints).
    public var trace: [String]
    /// Virtual seconds the world's clock moved.
    public var virtualSeconds: Double
    /// Refresh grants the provider received.
    public var refreshGrants: Int

    /// Whether every invariant held.
    public var passed: Bool { violations.isEmpty }

    /// A digest of the trace (FNV-1a over every line), to compare runs of one seed.
    public var digest: String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for line in trace { for byte in line.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }; hash = (hash ^ 10) &* 0x100_0000_01B3 }
        return String(hash, radix: 16)
    }
}
