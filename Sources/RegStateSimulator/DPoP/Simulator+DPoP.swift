import Foundation
import RegState

/// DPoP enforcement (RFC 9449): proofs at the token endpoint bind a grant's tokens to a key (`cnf.jkt` in the
/// world's records), and bound tokens are honoured at userinfo and the backend's resource endpoint only with a proof
/// by that key. Every §4.3 check is the ``DPoPProofVerifier``'s.
extension Simulator {
    /// Sets DPoP off, allowed or required.
    public func setDPoP(_ mode: SimulatorDPoPMode) { configuration.dpop = mode }

    /// Sets the DPoP nonce behaviour.
    public func setDPoPNonce(_ nonce: SimulatorDPoPNonce) { configuration.dpopNonce = nonce }

    /// The thumbprint a token request's proof binds to (`nil`: no proof, bearer tokens), or the refusal:
    /// `400 invalid_dpop_proof` for a defective or (when required) missing proof, `400 use_dpop_nonce` for a missing
    /// or stale nonce. Every answer carries the current `DPoP-Nonce` when nonces are on.
    func checkTokenRequestProof(_ request: HTTPRequest) -> Result<String?, BearerRefusal> {
        // Off, a proof is still checked: tokens bound earlier (a run with DPoP allowed) stay bound to their key.
        guard configuration.dpop != .advertisedOnly else { return .success(nil) }
        guard let proof = request.header("DPoP") else {
            guard configuration.dpop == .required else { return .success(nil) }
            return .failure(tokenRefusal("invalid_dpop_proof", "A DPoP proof is required."))
        }
        switch verifyProof(proof, request: request, token: nil) {
        case .success(let jkt): return .success(jkt)
        case .failure(.nonceRequired): return .failure(tokenRefusal("use_dpop_nonce", "A DPoP nonce is required."))
        case .failure(let refusal): return .failure(tokenRefusal("invalid_dpop_proof", "The proof was refused: \(refusal)."))
        }
    }

    /// Why a resource request's credentials are refused, or `nil` when they are good: a bound token needs the `DPoP`
    /// scheme and a valid proof by its key with `ath`; an unbound one must come as `Bearer`.
    func checkResourceProof(_ request: HTTPRequest, scheme: String, token: String, jkt: String?) -> BearerRefusal? {
        guard let jkt else {
            return scheme == "Bearer" ? nil : resourceRefusal("invalid_token", "The access token is not DPoP-bound.")
        }
        guard scheme == "DPoP" else {
            return resourceRefusal("invalid_token", "The access token is DPoP-bound: it cannot be used as a bearer token.")
        }
        guard let proof = request.header("DPoP") else {
            return resourceRefusal("invalid_dpop_proof", "A DPoP proof is required.")
        }
        switch verifyProof(proof, request: request, token: token) {
        case .success(let thumbprint) where thumbprint == jkt: return nil
        case .success: return resourceRefusal("invalid_dpop_proof", "The proof is signed by another key than the token's.")
        case .failure(.nonceRequired): return resourceRefusal("use_dpop_nonce", "A DPoP nonce is required.")
        case .failure(let refusal): return resourceRefusal("invalid_dpop_proof", "The proof was refused: \(refusal).")
        }
    }

    /// The current nonce, or `nil` when nonces are off. A hostile server moves it before every check.
    private func expectedNonce() -> String? {
        switch configuration.dpopNonce {
        case .off: return nil
        case .required: return "sim-nonce-\(dpopNonceCount)"
        case .changesEveryAnswer:
            dpopNonceCount += 1
            return "sim-nonce-\(dpopNonceCount)"
        }
    }

    private func verifyProof(_ proof: String, request: HTTPRequest, token: String?) -> Result<String, DPoPProofRefusal> {
        do {
            return .success(try dpopVerifier.verify(proof, method: request.method.rawValue, url: request.url,
                                                    accessToken: token, expectedNonce: expectedNonce(), now: clock.now()))
        } catch {
            return .failure(error)
        }
    }

    /// The headers every DPoP answer carries: the nonce to use next, when nonces are on.
    private var nonceHeaders: [String: String] {
        switch configuration.dpopNonce {
        case .off: return [:]
        case .required: return ["DPoP-Nonce": "sim-nonce-\(dpopNonceCount)"]
        case .changesEveryAnswer: return ["DPoP-Nonce": "sim-nonce-\(dpopNonceCount + 1000)"]
        }
    }

    private func tokenRefusal(_ code: String, _ description: String) -> BearerRefusal {
        var response = ServerResponse.oauthError(400, code, description)
        for (name, value) in nonceHeaders { response.headers[name] = value }
        return BearerRefusal(reason: description, response: response)
    }

    private func resourceRefusal(_ code: String, _ description: String) -> BearerRefusal {
        var headers = nonceHeaders
        headers["WWW-Authenticate"] = "DPoP algs=\"ES256\", error=\"\(code)\", error_description=\"\(description)\""
        return BearerRefusal(reason: description,
                             response: .json(401, ["error": .string(code), "error_description": .string(description)],
                                             headers: headers))
    }
}
