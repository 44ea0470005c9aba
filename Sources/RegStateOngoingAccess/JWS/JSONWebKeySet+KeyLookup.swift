import Foundation
import RegState

extension JSONWebKeySet {
    /// The RSA signing key (`use` absent or `"sig"`) a JWS header's `kid` names: the signed requests' lookup (the
    /// engine picks ID-token keys with `indexOfKey(withID:for:)`, which also checks the algorithm).
    ///
    /// With a `kid`, the first RSA signing key with that ID. Without one, the only RSA signing key when there is
    /// exactly one (RFC 7515 lets a header omit `kid` when the key is unambiguous); otherwise `nil`.
    package func key(withID keyID: String?) -> JSONWebKey? {
        let candidates = keys.filter { $0.keyType == "RSA" && $0.isSigningKey }
        guard let keyID else { return candidates.count == 1 ? candidates.first : nil }
        return candidates.first { $0.keyID == keyID }
    }
}
