import Foundation
import RegState
import Testing

/// DPoP proofs against an independent implementation (Python's jwcrypto from the interop peer's environment): the
/// proofs the library signs verify there with the key their own `jwk` header carries, and jwcrypto's RFC 7638
/// thumbprint of that key equals the library's.
extension InteropTests {
    @Suite("DPoP proofs against jwcrypto", .kit(.django))
    struct DPoPJWCryptoTests {
        static let crypto = SystemCrypto()

        static let helper = """
            import json, sys
            from jwcrypto import jwk, jws
            request = json.load(open(sys.argv[1]))
            out = {}
            for item in request["proofs"]:
                token = jws.JWS()
                try:
                    token.deserialize(item["compact"])
                    header = token.jose_header
                    key = jwk.JWK(**header["jwk"])
                    token.verify(key, alg="ES256")
                    out[item["name"]] = {"valid": True, "payload": json.loads(token.payload),
                                         "thumbprint": key.thumbprint(), "has_private": key.has_private,
                                         "typ": header.get("typ")}
                except Exception as error:
                    out[item["name"]] = {"valid": False, "error": type(error).__name__}
            print(json.dumps(out))
            """

        @Test("proofs verify in jwcrypto with their embedded key, its thumbprint equals the library's; a changed one fails")
        func proofsVerifyThere() async throws {
            let python = try await JOSEPeer.python()
            let key = try DPoPKey.generate(crypto: Self.crypto)
            let signer = DPoPProofSigner(key: key, crypto: Self.crypto)
            let url = try #require(URL(string: "https://idp.example/token?q=1"))
            let token = try signer.proof(method: "POST", url: url, now: Date())
            let resource = try signer.proof(method: "GET", url: url, accessToken: "at-1", nonce: "n-1", now: Date())
            var tampered = Array(resource)
            tampered[tampered.count - 5] = tampered[tampered.count - 5] == "A" ? "B" : "A"
            let request: JSONValue = ["proofs": [
                ["name": "token", "compact": .string(token)],
                ["name": "resource", "compact": .string(resource)],
                ["name": "tampered", "compact": .string(String(tampered))],
            ]]
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dpop-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let script = scratch.appendingPathComponent("dpop.py"), input = scratch.appendingPathComponent("in.json")
            try Data(Self.helper.utf8).write(to: script)
            try request.serialized().write(to: input)
            let output = try await ChildProcess.run(python, [script.path, input.path], timeout: .seconds(60))
            #expect(output.status == 0, "\(output.stderr.suffix(400))")
            let answer = try JSONValue.parse(Data(output.stdout.utf8))
            for name in ["token", "resource"] {
                #expect(answer[name]?["valid"] == true, "\(name): \(String(describing: answer[name]))")
                #expect(answer[name]?["thumbprint"]?.stringValue == key.thumbprint)
                #expect(answer[name]?["has_private"] == false)
                #expect(answer[name]?["typ"] == "dpop+jwt")
            }
            #expect(answer["token"]?["payload"]?["htu"] == "https://idp.example/token")
            #expect(answer["resource"]?["payload"]?["ath"]?.stringValue
                    == DPoPProofSigner.accessTokenHash("at-1", crypto: Self.crypto))
            #expect(answer["tampered"]?["valid"] == false)
        }
    }
}
