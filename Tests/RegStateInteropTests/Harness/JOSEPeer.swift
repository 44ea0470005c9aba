import Foundation
import RegState
import Testing

/// Python's jwcrypto, from the interop peer's virtual environment: an independent JOSE implementation to check the
/// library's signatures against, both ways.
///
/// The environment is the one the django-oauth-toolkit kit makes (``PeerKit/python``): the tests that use it carry the
/// `.kit(.django)` trait, which prepares it or skips them (under `CI=true` they run, and fail without it).
enum JOSEPeer {
    /// The venv's python, when it can import jwcrypto.
    static func python() async throws -> String {
        let python = PeerKit.django.python
        if await hasJWCrypto(python) { return python }
        throw InteropError.providerUnavailable(
            "\(python) cannot import jwcrypto (Tests/Peers/django-oauth-toolkit/start.sh --prepare makes it)")
    }

    /// Runs the JOSE helper with `request` and returns its JSON answer.
    static func run(_ request: JSONValue) async throws -> JSONValue {
        let python = try await python()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("jose-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let script = scratch.appendingPathComponent("jose.py")
        let input = scratch.appendingPathComponent("request.json")
        try Data(helper.utf8).write(to: script)
        try request.serialized().write(to: input)
        let output = try await ChildProcess.run(python, [script.path, input.path], timeout: .seconds(60))
        guard output.status == 0, let answer = try? JSONValue.parse(Data(output.stdout.utf8)) else {
            throw InteropError.scriptFailed("jwcrypto helper exited \(output.status): \(output.stderr.suffix(800))")
        }
        return answer
    }

    private static func hasJWCrypto(_ python: String) async -> Bool {
        guard FileManager.default.isExecutableFile(atPath: python),
              let output = try? await ChildProcess.run(python, ["-c", "import jwcrypto"], timeout: .seconds(30))
        else { return false }
        return output.status == 0
    }

    /// `verify`: checks each token with the given public key (JWK or PEM) and algorithm.
    /// `sign`: makes a 2048-bit key, signs the payload with PS512 and RS256, and exports the key every way.
    static let helper = """
        import json, sys
        from jwcrypto import jwk, jws
        from jwcrypto.common import json_encode
        request = json.load(open(sys.argv[1]))
        out = {}
        if request["op"] == "verify":
            for item in request["tokens"]:
                if "jwk" in item:
                    key = jwk.JWK(**item["jwk"])
                else:
                    key = jwk.JWK.from_pem(item["pem"].encode())
                token = jws.JWS()
                try:
                    token.deserialize(item["compact"])
                    token.verify(key, alg=item["alg"])
                    out[item["name"]] = {"valid": True, "payload": json.loads(token.payload)}
                except Exception as error:
                    out[item["name"]] = {"valid": False, "error": type(error).__name__}
        elif request["op"] == "sign":
            key = jwk.JWK.generate(kty="RSA", size=2048, kid="py-1")
            payload = json.dumps(request["payload"]).encode()
            for alg in ["PS512", "RS256"]:
                token = jws.JWS(payload)
                token.add_signature(key, alg=alg, protected=json_encode({"alg": alg, "kid": "py-1", "typ": "JWT"}))
                out[alg] = token.serialize(compact=True)
            out["public_jwk"] = json.loads(key.export_public())
            out["public_pem"] = key.export_to_pem().decode()
            out["private_pem"] = key.export_to_pem(private_key=True, password=None).decode()
            out["private_jwk"] = json.loads(key.export_private())
        print(json.dumps(out))
        """
}
