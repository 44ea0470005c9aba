import Foundation

/// Several rounds of one figure: min, median and max of the per-round value.
struct Rounds {
    var values: [Double]

    var min: Double { values.min() ?? .nan }
    var max: Double { values.max() ?? .nan }
    var median: Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }

    /// Times `body` once per round (after `body` once untimed as warm-up), in the unit's scale of seconds.
    static func time(rounds: Int, scale: Double = 1e3, prepare: () async throws -> Void = {},
                     _ body: () async throws -> Void) async rethrows -> Rounds {
        try await prepare()
        try await body()
        var values: [Double] = []
        for _ in 0..<rounds {
            try await prepare()
            let start = DispatchTime.now().uptimeNanoseconds
            try await body()
            values.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 * scale)
        }
        return Rounds(values: values)
    }

    /// One line: label, min / median / max, unit.
    func line(_ label: String, unit: String = "ms") -> String {
        String(format: "%@  min %9.3f  median %9.3f  max %9.3f %@", label.padding(toLength: 78, withPad: " ", startingAt: 0),
               min, median, max, unit)
    }

    /// The per-round ratio of `self` to `floor` (same number of rounds, paired by index).
    func ratio(to floor: Rounds) -> Rounds {
        Rounds(values: zip(values, floor.values).map { $0 / $1 })
    }
}
