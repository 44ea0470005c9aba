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

    /// What `JSONEncoder` writes for `value` with the options `serialized()` promises.
    static func encoded(_ value: JSONValue) -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try? encoder.encode(value)
    }

    @Test("serialized() writes the bytes JSONEncoder writes, for every accepted random input and hand-picked values")
    func serializedMatchesJSONEncoder() throws {
        var generator = SplitMix(state: 0x5E71)
        var compared = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 1...12, using: &generator)
            let text = (0..<count).map { _ in Self.pieces.randomElement(using: &generator) ?? "" }.joined()
            guard let value = try? JSONValue.parse(Data(text.utf8)) else { continue }
            compared += 1
            #expect(value.serialized() == Self.encoded(value), "\(text.debugDescription)")
        }
        #expect(compared > 100)
        let picked: [JSONValue] = [
            ["b": 1, "a": [true, false, nil], "B": "x/y", "é": "\u{0}\u{1F}\u{7F}\"\\\n\r\t\u{08}\u{0C}", "10": 2, "9": 3, "": [:]],
            .number(-0.0), .number(0.1), .number(1e15), .number(1e16), .number(9_007_199_254_740_992), .number(-1.5e-7),
            .number(1_795_711_486.9484806), .number(1e300), .number(-42), .string("😀 ü \u{2028}"), .array([]),
        ]
        for value in picked {
            #expect(value.serialized() == Self.encoded(value), "\(value)")
        }
        #expect(JSONValue.number(.infinity).serialized() == Data("null".utf8))
        #expect(JSONValue.array([.number(.nan)]).serialized() == Data("null".utf8))
    }
}
