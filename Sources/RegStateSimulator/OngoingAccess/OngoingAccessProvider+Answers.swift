import Foundation
import RegState
import RegStateOngoingAccess

/// Signing answers, well or with the fault set on the endpoint.
extension OngoingAccessProvider {
    /// The `kid` of the 1024-bit key the key set publishes for the ``OngoingAccessFault/weakKey`` fault.
    static let weakKeyID = "weak-1024"
    /// The `kid` of the key the provider rotates to for the ``OngoingAccessFault/rotatedKey`` fault.
    static let rotatedKeyID = "ongoing-rotated"

    /// A 1024-bit RSA public key (a fixed odd modulus with its top bit set); nothing it "signs" is ever valid.
    static let weakPublicKey: RSAPublicKey = {
        var modulus = Data(repeating: 0xA5, count: 128)
        modulus[0] = 0xC3
        modulus[127] = 0x01
        return RSAPublicKey(modulus: modulus, exponent: Data([1, 0, 1]))
    }()

    /// A `200 {"token": JWS}` answer to the request whose `claims` are given: `payload` plus the request's nonce and
    /// `iat`, signed with the provider's key unless a fault is set on `endpoint`.
    func answer(_ payload: [String: JSONValue], to claims: [String: JSONValue], on endpoint: OngoingAccessEndpoint) throws
        -> HTTPResponse
    {
        var full = payload
        full["nonce"] = claims["nonce"] ?? .null
        full["iat"] = .number(clock.now().timeIntervalSince1970.rounded(.down))
        let fault = faults[endpoint]
        if fault == .replayedAnswer, let previous = lastAnswers[endpoint] {
            return .json(200, ["token": .string(previous)])
        }
        let token = try sign(full, fault: fault)
        if fault == nil || fault == .replayedAnswer { lastAnswers[endpoint] = token }
        return .json(200, ["token": .string(token)])
    }

    private func sign(_ payload: [String: JSONValue], fault: OngoingAccessFault?) throws -> String {
        let algorithm = configuration.signingAlgorithm
        var header: [String: JSONValue] = ["alg": .string(algorithm.rawValue), "typ": "JWT", "kid": .string(world.keyID)]
        var payloadText = JSONValue.object(payload).serialized()
        var key = signingKey
        switch fault {
        case .wrongSigningKey: key = try crypto.generateRSAPrivateKey(bits: 2048)
        case .unknownKeyID: header["kid"] = "not-a-provider-key"
        case .missingKeyID: header["kid"] = nil
        case .foreignKeySetURL:
            header["kid"] = "attacker-key"
            header["jku"] = "https://attacker.example/jwks.json"
        case .rotatedKey:
            if rotatedKey == nil { rotatedKey = try crypto.generateRSAPrivateKey(bits: 2048) }
            key = rotatedKey ?? key
            header["kid"] = .string(Self.rotatedKeyID)
            header["jku"] = .string(configuration.keySetURL.absoluteString)
        case .duplicateMembers:
            // A second "nonce" member ahead of the real one: a lenient reader would believe whichever it keeps.
            var text = String(decoding: payloadText, as: UTF8.self)
            text.insert(contentsOf: "\"nonce\":\"forged\",", at: text.index(after: text.startIndex))
            payloadText = Data(text.utf8)
        default: break
        }
        if fault == .algorithmNone || fault == .algorithmHS512 || fault == .weakKey {
            if fault == .weakKey {
                header["kid"] = .string(Self.weakKeyID)
                header["jku"] = .string(configuration.keySetURL.absoluteString)
            } else {
                header["alg"] = fault == .algorithmNone ? "none" : "HS512"
            }
            let input = Self.segment(JSONValue.object(header).serialized()) + "." + Self.segment(payloadText)
            let fake: Data = switch fault {
            case .algorithmNone: Data()
            case .weakKey: try crypto.randomBytes(count: 128)
            default: crypto.hmacSHA256(key: Data("shared".utf8), message: Data(input.utf8))
                + crypto.hmacSHA256(key: Data("secret".utf8), message: Data(input.utf8))
            }
            return input + "." + Self.segment(fake)
        }
        let input = Self.segment(JSONValue.object(header).serialized()) + "." + Self.segment(payloadText)
        var signature = try crypto.sign(message: Data(input.utf8), privateKey: key, algorithm: algorithm)
        if fault == .truncatedSignature { signature = signature.dropLast() }
        if fault == .tamperedPayload {
            var changed = payload
            changed["exp"] = .number(4_102_444_800)
            changed["scope"] = ["from": .null, "to": .null]
            return Self.segment(JSONValue.object(header).serialized()) + "." + Self.segment(JSONValue.object(changed).serialized())
                + "." + Self.segment(signature)
        }
        return input + "." + Self.segment(signature)
    }

    private static func segment(_ data: Data) -> String { Base64URL.encode(data) }
}
