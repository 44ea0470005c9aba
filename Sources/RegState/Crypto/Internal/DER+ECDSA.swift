import Foundation

extension DER {
    /// The fixed DER prefix of a P-256 `SubjectPublicKeyInfo` (id-ecPublicKey, prime256v1, BIT STRING of 66 bytes),
    /// followed by the 65-byte uncompressed point.
    static let p256PublicKeyPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48,
        0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]

    /// The `SubjectPublicKeyInfo` DER of a P-256 key.
    static func p256SubjectPublicKeyInfo(_ key: P256PublicKey) -> Data {
        Data(p256PublicKeyPrefix) + key.uncompressedPoint
    }

    /// The point of a P-256 `SubjectPublicKeyInfo`, as `x` and `y`; `nil` for anything else.
    package static func p256PublicKey(fromSubjectPublicKeyInfo der: Data) -> P256PublicKey? {
        let bytes = Array(der)
        guard bytes.count == p256PublicKeyPrefix.count + 65, bytes.starts(with: p256PublicKeyPrefix),
            bytes[p256PublicKeyPrefix.count] == 0x04
        else { return nil }
        let x = bytes[(p256PublicKeyPrefix.count + 1)..<(p256PublicKeyPrefix.count + 33)]
        return P256PublicKey(x: Data(x), y: Data(bytes.suffix(32)))
    }

    /// The DER `ECDSA-Sig-Value` of a JOSE ES256 signature (`r || s`, 32 bytes each); `nil` for another length.
    static func ecdsaSignature(jose signature: Data) -> Data? {
        guard signature.count == 64 else { return nil }
        let bytes = Array(signature)
        return sequence(integer(unsigned: Data(bytes[0..<32])) + integer(unsigned: Data(bytes[32..<64])))
    }

    /// The JOSE form (`r || s`, 32 bytes each) of a DER `ECDSA-Sig-Value`; `nil` when it is not one for P-256.
    static func joseSignature(ecdsa der: Data) -> Data? {
        guard var inner = sequenceContent(der), let r = inner.element(tag: integerTag),
            let s = inner.element(tag: integerTag), inner.isAtEnd
        else { return nil }
        var out = Data()
        for part in [r, s] {
            let trimmed = part.drop { $0 == 0 }
            guard trimmed.count <= 32 else { return nil }
            out.append(contentsOf: [UInt8](repeating: 0, count: 32 - trimmed.count))
            out.append(contentsOf: trimmed)
        }
        return out
    }
}
