import Foundation
import RegState

/// The DPoP invariants, read off the wire (RFC 9449): every request with a bound token carries a proof
/// (`dpop-proof`: a request the provider or the resource server refused for its proof, or a bound token sent without
/// one, is the engine's doing), a bound token never travels as `Bearer` (`dpop-bearer`), and a registration after a
/// logout or clear-state proves with a new key (`dpop-key-rotates`). Tokens appear only as fingerprints.
final class DPoPAudit: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`.
    private let lock = NSLock()
    private let ledger: Ledger
    /// Fingerprints of the access and refresh tokens the provider issued bound (`token_type: DPoP`).
    private var bound: Set<String> = []
    /// The public keys (`jwk.x`) of every proof seen, and those in use when a session ended.
    private var keysSeen: Set<String> = []
    private var retired: Set<String> = []
    private var counts = (proofs: 0, refusals: 0, nonceChallenges: 0, excused: 0)

    init(ledger: Ledger) { self.ledger = ledger }

    /// Proofs sent, refusals the engine caused, nonce challenges, refusals the world caused (the clock jumped while
    /// the request was on its way).
    var summary: String {
        lock.withLock {
            "proofs \(counts.proofs) engine-refusals \(counts.refusals) nonce-challenges \(counts.nonceChallenges) "
                + "excused \(counts.excused) bound-tokens \(bound.count) keys \(keysSeen.count)"
        }
    }

    /// Checks a request as it leaves.
    func leaving(_ request: HTTPRequest, label: String) {
        let proofKey = request.header("DPoP").flatMap(Self.proofKey)
        let authorization = request.header("Authorization") ?? ""
        let grant = SimulatedNetwork.formValue("grant_type", in: request)
        lock.withLock {
            if let proofKey { counts.proofs += 1; keysSeen.insert(proofKey) }
            if authorization.hasPrefix("Bearer "), bound.contains(Ledger.fingerprint(String(authorization.dropFirst(7)))) {
                ledger.violation("dpop-bearer", "\(label) sends a DPoP-bound token as Bearer")
            }
            if authorization.hasPrefix("DPoP "), proofKey == nil {
                ledger.violation("dpop-proof", "\(label) sends a DPoP token without a usable proof")
            }
            if grant == "refresh_token", let token = SimulatedNetwork.formValue("refresh_token", in: request),
               bound.contains(Ledger.fingerprint(token)), proofKey == nil {
                ledger.violation("dpop-proof", "\(label) presents a bound refresh token without a proof")
            }
            if grant == "authorization_code", let proofKey, retired.contains(proofKey) {
                ledger.violation("dpop-key-rotates", "\(label): a new registration proves with a key of a session that ended")
            }
        }
    }

    /// Checks an answer: bound tokens issued, proofs refused. `clockMoved`: the virtual clock jumped while the
    /// request was on its way, so a proof's `iat` may have left the server's window through no fault of the engine.
    func answered(_ request: HTTPRequest, _ response: HTTPResponse, label: String, clockMoved: Bool) {
        var body: [String: Any] = [:]
        if let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] {
            body = object
        }
        let challenge = response.header("WWW-Authenticate") ?? ""
        let error = (body["error"] as? String) ?? ""
        lock.withLock {
            if response.status == 200, (body["token_type"] as? String)?.lowercased() == "dpop" {
                for name in ["access_token", "refresh_token"] {
                    if let token = body[name] as? String { bound.insert(Ledger.fingerprint(token)) }
                }
            }
            if error == "use_dpop_nonce" || challenge.contains("use_dpop_nonce") { counts.nonceChallenges += 1 }
            guard error == "invalid_dpop_proof" || challenge.contains("invalid_dpop_proof") else { return }
            let why = (body["error_description"] as? String) ?? "invalid_dpop_proof"
            if clockMoved, why.contains("issueTimeOutsideWindow") {
                counts.excused += 1
                ledger.note("note  \(label) proof refused after the clock jumped in flight (world's doing): \(why)")
            } else {
                counts.refusals += 1
                ledger.violation("dpop-proof", "\(label) refused: \(why)")
            }
        }
    }

    /// A logout or clear-state completed: the keys in use so far belong to an ended session.
    func sessionEnded() { lock.withLock { retired.formUnion(keysSeen) } }

    /// The `x` coordinate of a proof's embedded public key.
    static func proofKey(_ proof: String) -> String? {
        guard let header = proof.split(separator: ".").first, let data = Base64URL.decode(String(header)),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let jwk = object["jwk"] as? [String: Any]
        else { return nil }
        return jwk["x"] as? String
    }
}
