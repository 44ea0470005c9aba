import Foundation

extension JSONWebKey {
    /// The RFC 7638 JWK thumbprint: base64url SHA-256 of ``thumbprintInput()`` (EC and RSA keys).
    /// - Throws: ``DPoPError/thumbprintUnavailable(reason:)`` for other key types or a missing member.
    package func thumbprint(crypto: any CryptoProvider) throws(DPoPError) -> String {
        Base64URL.encode(crypto.sha256(Data(try thumbprintInput().utf8)))
    }

    /// The canonical JSON the thumbprint hashes (RFC 7638 §3.3): the required members in the order of their names, no
    /// whitespace, as ``JSONValue/serialized()`` writes every JSON object.
    func thumbprintInput() throws(DPoPError) -> String {
        let members: JSONValue
        switch keyType {
        case "EC":
            guard let curve, let x, let y else { throw .thumbprintUnavailable(reason: "an EC key needs crv, x and y") }
            members = ["crv": .string(curve), "kty": "EC", "x": .string(x), "y": .string(y)]
        case "RSA":
            guard let exponent, let modulus else { throw .thumbprintUnavailable(reason: "an RSA key needs e and n") }
            members = ["e": .string(exponent), "kty": "RSA", "n": .string(modulus)]
        default:
            throw .thumbprintUnavailable(reason: "key type '\(keyType.prefix(16))' is not supported")
        }
        return String(decoding: members.serialized(), as: UTF8.self)
    }
}
