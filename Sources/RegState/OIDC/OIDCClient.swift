import Foundation

/// A client of one OpenID provider (discovery, token endpoint, ID tokens, revocation; each grant adds its requests),
/// an actor because it caches the discovery document and the signing keys.
package actor OIDCClient {
    /// The provider and client this instance talks to.
    package nonisolated let configuration: OIDCConfiguration
    package let transport: any HTTPTransport
    let crypto: any CryptoProvider
    let clock: any RegStateClock
    /// The offset to the provider's clock (from its answers' `Date` headers), for ID token time claims.
    package nonisolated let clockEstimate: ProviderClockEstimate
    let onClockOffset: @Sendable (TimeInterval) -> Void
    var cachedMetadata: ProviderMetadata?
    var cachedKeys: JSONWebKeySet?
    var cachedRevocationEndpoint: URL?
    /// The DPoP key, nonces and signer shared with the engine; `nil`: token requests carry no proofs.
    package nonisolated let dpop: DPoPContext?

    /// Creates a client; `onClockOffset` hears each move of the provider's clock offset (seconds, provider minus
    /// device) by at least ``ProviderClockEstimate/negligible``.
    package init(
        configuration: OIDCConfiguration,
        transport: any HTTPTransport = URLSessionTransport(),
        crypto: any CryptoProvider = SystemCrypto(),
        clock: any RegStateClock = SystemClock(),
        clockEstimate: ProviderClockEstimate = ProviderClockEstimate(),
        onClockOffset: @escaping @Sendable (TimeInterval) -> Void = { _ in },
        dpop: DPoPContext? = nil
    ) {
        self.dpop = dpop
        self.configuration = configuration
        self.transport = ClockObservingTransport(base: transport, estimate: clockEstimate, clock: clock,
                                                 onChange: onClockOffset)
        self.crypto = crypto
        self.clock = clock
        self.clockEstimate = clockEstimate
        self.onClockOffset = onClockOffset
    }

    /// The provider's discovery document, fetched once and cached (a failure is not cached).
    ///
    /// - Throws: ``OIDCError/insecureURL(_:)`` for an issuer or endpoint that is neither `https` nor loopback (the
    ///   request is not sent for such an issuer); ``OIDCError/issuerMismatch(expected:found:)`` for another issuer
    ///   (exact strings, OIDC Discovery §4.3); transport, server and malformed-response errors otherwise.
    package func metadata() async throws(OIDCError) -> ProviderMetadata {
        if let cachedMetadata { return cachedMetadata }
        guard TransportSecurity.allows(configuration.issuer) else { throw .insecureURL("issuer") }
        let request = HTTPRequest(method: .get, url: configuration.discoveryURL,
                                  headers: ["Accept": "application/json"])
        let response = try await ResponseReading.send(request, over: transport)
        let metadata = try ProviderMetadata.read(discovery: try ResponseReading.documentBody(response))
        guard metadata.issuer == configuration.issuerIdentifier else {
            throw .issuerMismatch(expected: configuration.issuerIdentifier, found: metadata.issuer)
        }
        if let insecure = metadata.namedEndpoints.first(where: { !TransportSecurity.allows($0.url) }) {
            throw .insecureURL(insecure.name)
        }
        cachedMetadata = metadata
        return metadata
    }

    /// `endpoint` with `parameters` appended to whatever query it already has.
    static func url(_ endpoint: URL, addingQuery parameters: [(String, String)]) -> URL? {
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else { return nil }
        let added = FormEncoding.encode(parameters)
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + added
        } else {
            components.percentEncodedQuery = added
        }
        return components.url
    }
}
