import Foundation
import RegState

/// One PEM block: its label and the DER bytes between the encapsulation boundaries.
struct PEMBlock {
    /// The label, such as `PUBLIC KEY`.
    let label: String
    /// The decoded body.
    let der: Data

    /// Reads the first PEM block of `text`; headers (`Proc-Type`, which marks encryption) are refused.
    init(_ text: String) throws(CryptoError) {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN ") && $0.hasSuffix("-----") }) else {
            throw .invalidKey("no PEM BEGIN line")
        }
        let label = String(lines[begin].dropFirst("-----BEGIN ".count).dropLast(5))
        guard let end = lines[begin...].firstIndex(of: "-----END \(label)-----") else {
            throw .invalidKey("no PEM END line for \"\(label.prefix(40))\"")
        }
        let body = lines[(begin + 1)..<end]
        guard !body.contains(where: { $0.contains(":") }) else { throw .invalidKey("encrypted PEM is not supported") }
        guard let der = Data(base64Encoded: body.joined()), !der.isEmpty else { throw .invalidKey("the PEM body is not base64") }
        self.label = label
        self.der = der
    }

    /// `der` as a PEM block with 64-character lines.
    static func encode(label: String, der: Data) -> String {
        let base64 = Array(der.base64EncodedString())
        let body = stride(from: 0, to: base64.count, by: 64).map { String(base64[$0..<min($0 + 64, base64.count)]) }
        return (["-----BEGIN \(label)-----"] + body + ["-----END \(label)-----"]).joined(separator: "\n") + "\n"
    }
}
