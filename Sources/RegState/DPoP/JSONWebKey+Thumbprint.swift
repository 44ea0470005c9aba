import Foundation

extension JSONWebKey {
    /// The RFC 7638 JWK thumbprint: SHA-256 over the required members in lexicographic order, no whitespace,
    /// base64url without padding. EC keys use `crv`, `kty`, `x`, `y`; RSA keys `e`, `kty`, `n` (§3.2).
    ///
    /// - Throws: ``DPoPError/thumbprintUnavailable(reason:)`` for other key types or a missing member.
    public func thumbprint(crypto: any CryptoProvider) throws(DPoPError) -> String {
        Base64URL.encode(crypto.sha256(Data(try thumbprintInput().utf8)))
    }

    /// The canonical JSON the thumbprint hashes (RFC 7638 §3.3).
    func thumbprintInput() throws(DPoPError) -> String {
        switch keyType {
        case "EC":
            guard let curve, let x, let y else { throw .thumbprintUnavailable(reason: "an EC key needs crv, x and y") }
            return #"{"crv":\#(Self.quoted(curve)),"kty":"EC","x":\#(Self.quoted(x)),"y":\#(Self.quoted(y))}"#
        case "RSA":
            guard let exponent, let modulus else { throw .thumbprintUnavailable(reason: "an RSA key needs e and n") }
            return #"{"e":\#(Self.quoted(exponent)),"kty":"RSA","n":\#(Self.quoted(modulus))}"#
        default:
            throw .thumbprintUnavailable(reason: "key type '\(keyType.prefix(16))' is not supported")
        }
    }

    /// A JSON string literal; the members hashed are base64url or curve names, escaped anyway for safety.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
