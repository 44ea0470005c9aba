import Foundation

/// A token ready to authorize a request, built from one reading of the credentials record: the token, its scheme
/// (bearer, or DPoP with the key that must sign for it), its expiry and where it may go. The scheme comes from the
/// same record as the token, so a DPoP-bound token can never go out as `Bearer`. Its descriptions and mirror are
/// redacted.
public struct AccessCredential: Sendable, Equatable, RedactedDescription {
    /// How the token is presented.
    package enum Scheme: Sendable, Equatable {
        /// `Authorization: Bearer <token>` (RFC 6750).
        case bearer
        /// `Authorization: DPoP <token>` with a fresh `DPoP` proof signed by this key (RFC 9449 §7.1).
        case dpop(DPoPKey)
    }

    /// The raw token: the one accessor that hands it out, for a library that takes the token itself (a third-party
    /// SDK). Prefer ``RegStateService/authorize(_:policy:)`` or ``AuthorizedTransport``: a DPoP-bound token
    /// (``isDPoPBound``) is useless without the proof they add, and a token copied out is not renewed.
    public let token: String
    package let scheme: Scheme
    /// When the token expires, when known.
    public let expiresAt: Date?
    /// Which token it is (the provider's access token or the backend security token): where a ``TokenPolicy`` lets
    /// it go.
    public let carrier: TokenCarrier
    /// When and how strongly the user signed in for the session this token belongs to (`auth_time`, `acr` of its
    /// ID token); `nil` for a token without an ID token (the non-native token, the backend security token).
    public let signIn: SignInAssurance?

    package init(token: String, scheme: Scheme = .bearer, expiresAt: Date? = nil, carrier: TokenCarrier,
                 signIn: SignInAssurance? = nil) {
        self.signIn = signIn
        self.token = token
        self.scheme = scheme
        self.expiresAt = expiresAt
        self.carrier = carrier
    }

    /// Whether the token is bound to a DPoP key (RFC 9449): it goes out only as `DPoP`, with a proof.
    public var isDPoPBound: Bool {
        if case .dpop = scheme { return true }
        return false
    }

    /// The header fields that authorize one request, `Authorization` (and for a DPoP-bound token a fresh `DPoP` proof
    /// for this method and URL): the one place in RegState that writes an authorization scheme. Throws
    /// ``RegStateServiceError/dpop(_:)`` when the proof cannot be made (or `dpop` is `nil` for a bound token).
    package func authorizationFields(method: String, url: URL, dpop: DPoPContext?) throws(RegStateServiceError)
        -> [String: String]
    {
        switch scheme {
        case .bearer:
            return ["Authorization": "Bearer \(token)"]
        case .dpop(let key):
            guard let dpop else { throw .dpop(.keyRecordUnreadable(reason: "DPoP is not configured")) }
            do {
                return ["Authorization": "DPoP \(token)",
                        "DPoP": try dpop.proof(key: key, method: method, url: url, accessToken: token)]
            } catch {
                throw .dpop(error)
            }
        }
    }

    /// `request` with ``authorizationFields(method:url:dpop:)`` set (and its errors).
    package func authorizing(_ request: HTTPRequest, dpop: DPoPContext?) throws(RegStateServiceError) -> HTTPRequest {
        var authorized = request
        for (name, value) in try authorizationFields(method: request.method.rawValue, url: request.url, dpop: dpop) {
            authorized.headers[name] = value
        }
        return authorized
    }

    /// The fields of a bearer credential, which need no proof and cannot fail (the backend's security token, a
    /// userinfo or ongoing-access request).
    package static func bearerFields(_ token: String, carrier: TokenCarrier,
                                     merging headers: [String: String] = [:]) -> [String: String] {
        let credential = AccessCredential(token: token, carrier: carrier)
        // A bearer credential makes no proof and needs no URL: the fields are always there.
        let fields = (try? credential.authorizationFields(method: "GET", url: Self.anyURL, dpop: nil)) ?? [:]
        return headers.merging(fields) { _, authorization in authorization }
    }

    private static let anyURL = URL(fileURLWithPath: "/")

    /// Redacted: a credential holds a token.
    public var description: String {
        "AccessCredential(\(carrier.rawValue), \(isDPoPBound ? "DPoP" : "Bearer"), token: redacted)"
    }

    /// A mirror without the token or the DPoP key: what `dump` and a debugger's variable view show.
    public var customMirror: Mirror {
        Mirror(self, children: ["carrier": carrier, "isDPoPBound": isDPoPBound, "expiresAt": expiresAt as Any,
                                "signIn": signIn as Any, "token": "redacted"], displayStyle: .struct)
    }
}
