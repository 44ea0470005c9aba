import Foundation
import RegStateTestSupport
import Testing

/// The engine's errors stay typed end to end: no code in `Sources/RegState` gets an error's type back by casting it
/// (`as?`/`as!` to an error type, `catch let e as`, `catch is`, `is SomeError`, or a `catch SomeError.case` pattern
/// on an untyped error). Where Foundation throws untyped, its one translation reads the `NSError` it bridges to.
@Suite("Rule: no error recovered by casting")
struct ErrorCastRuleTests {
    /// The forms of a cast that recovers an error's type.
    static let forbidden: [(name: String, pattern: String)] = [
        ("as? / as! an error type", #"\bas[?!]\s*(any\s+)?[A-Z][A-Za-z0-9]*Error\b"#),
        ("catch let … as", #"\bcatch\s+(let|var)\s+\w+\s+as\b"#),
        ("catch is", #"\bcatch\s+is\b"#),
        ("is an error type", #"\bis\s+(any\s+)?[A-Z][A-Za-z0-9]*Error\b"#),
        ("catch SomeError.case", #"\bcatch\s+[A-Z][A-Za-z0-9]*Error\."#),
        ("case … as / case is an error type", #"\bcase\s+((let|var)\s+\w+\s+as|is)\s+[A-Z][A-Za-z0-9]*Error\b"#),
    ]

    /// The code of `line`: nothing for a comment line, the part before a trailing ` // ` comment otherwise.
    static func code(_ line: Substring) -> Substring {
        let trimmed = line.drop { $0 == " " }
        if trimmed.hasPrefix("//") { return "" }
        guard let comment = line.range(of: " // ") else { return line }
        return line[..<comment.lowerBound]
    }

    /// The forbidden forms, compiled once.
    static func compiled() throws -> [(name: String, regex: Regex<AnyRegexOutput>)] {
        try forbidden.map { ($0.name, try Regex($0.pattern)) }
    }

    /// The name of the first forbidden form `line` uses, if any.
    static func cast(in line: Substring, _ forms: [(name: String, regex: Regex<AnyRegexOutput>)]) throws -> String? {
        let code = Self.code(line)
        for (name, regex) in forms where try regex.firstMatch(in: code) != nil {
            return name
        }
        return nil
    }

    @Test("every form of an error cast is caught; a typed catch, a response cast and the NSError bridge are not",
          arguments: [
              ("if let error = error as? StoreError { }", true),
              ("let e = error as! URLError", true),
              ("} catch let error as CryptoError {", true),
              ("} catch var error as JWTError {", true),
              ("} catch is CancellationError {", true),
              ("if error is DecodingError { }", true),
              ("guard error is any TransportError else { }", true),
              ("} catch TokenServiceError.corrupt {", true),
              ("case let failure as JournalError:", true),
              ("case is SystemCallError:", true),
              ("} catch .corrupt {", false),
              ("} catch where error.code == EEXIST {", false),
              ("guard let http = response as? HTTPURLResponse else {", false),
              ("let bridged = error as NSError", false),
              ("/// Throws ``StoreError`` — never `error as? StoreError`.", false),
              ("let x = 1 // not `catch is CancellationError`", false),
          ])
    func scannerSeesEveryForm(line: String, isCast: Bool) throws {
        let found = try Self.cast(in: Substring(line), Self.compiled())
        #expect((found != nil) == isCast, "\(line): \(found ?? "no cast")")
    }

    @Test("no Swift file in Sources/RegState recovers an error by casting")
    func noCastInTheEngine() throws {
        let root = try #require(BuiltProducts.packageRoot).appendingPathComponent("Sources/RegState")
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 100, "the engine's sources were found")
        let forms = try Self.compiled()
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if let name = try Self.cast(in: line, forms) { found.append("Sources/RegState/\(file):\(index + 1): \(name)") }
            }
        }
        #expect(found.isEmpty, "errors recovered by casting:\n\(found.joined(separator: "\n"))")
    }
}
