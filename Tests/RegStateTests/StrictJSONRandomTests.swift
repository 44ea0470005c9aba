import Foundation
import Testing

import RegState

/// Seeded random inputs for the byte parser: it never crashes, and what it accepts Foundation's parser accepts too
/// (with the same value), so strictness only ever removes inputs.
@Suite("Strict JSON, random inputs")
struct StrictJSONRandomTests {
    /// A small deterministic generator (SplitMix64), so a failure replays.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let pieces: [String] = [
        "{", "}", "[", "]", ",", ":", " ", "\"", "\"a\"", "\"b\"", "1", "-", "0", ".", "e", "+", "9", "true", "false",
        "null", "\\", "\\u", "d800", "00e9", "\\n", "é", "\u{01}", "tru", "1e400", "\"x\":", "{\"a\":1}", "[1,2]",
    ]

    @Test("20,000 seeded random inputs: no crash; accepted implies Foundation accepts")
    func random() {
        var generator = SplitMix(state: 0x5EED)
        var accepted = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 1...12, using: &generator)
            let text = (0..<count).map { _ in Self.pieces.randomElement(using: &generator) ?? "" }.joined()
            let data = Data(text.utf8)
            guard let value = try? JSONValue.parse(data) else { continue }
            accepted += 1
            let foundation = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            #expect(foundation != nil, "accepted but Foundation refuses: \(text.debugDescription)")
            // Mutations of an accepted input: still no crash.
            for cut in stride(from: 0, to: data.count, by: max(1, data.count / 4)) {
                _ = try? JSONValue.parse(data.prefix(cut))
            }
            _ = value
        }
        #expect(accepted > 100)
    }
}
