import Foundation

/// Whether authorization requests go through the provider's pushed authorization request endpoint (RFC 9126, which
/// the OAuth 2.0 Security BCP recommends): the browser's address bar then carries only `client_id` and `request_uri`.
public enum PushedAuthorizationMode: String, Sendable, Equatable, CaseIterable, Codable {
    /// Never push. A provider whose discovery says `require_pushed_authorization_requests: true` is then refused with
    /// ``OIDCError/pushedAuthorizationUnavailable(_:)`` before anything is sent (it would refuse the plain request).
    case off
    /// Push when discovery lists `pushed_authorization_request_endpoint` (the default); otherwise a plain
    /// authorization URL, unless the provider's discovery requires PAR, which then needs the endpoint.
    case whenOffered = "auto"
    /// Always push (the client's RFC 9126 `require_pushed_authorization_requests`): a provider without the endpoint
    /// is ``OIDCError/pushedAuthorizationUnavailable(_:)``, never a silent plain request.
    case required
}

extension PushedAuthorizationMode {
    /// The endpoint to push to at a provider with `metadata`, `nil` for a plain authorization URL.
    /// - Throws: ``OIDCError/pushedAuthorizationUnavailable(_:)`` when PAR is required (by this mode or by the
    ///   provider) and cannot be used: no endpoint, or switched off while the provider requires it.
    func endpoint(in metadata: ProviderMetadata) throws(OIDCError) -> URL? {
        let providerRequires = metadata.requirePushedAuthorizationRequests ?? false
        switch (self, metadata.pushedAuthorizationRequestEndpoint) {
        case (.off, _) where providerRequires:
            throw .pushedAuthorizationUnavailable("the provider requires pushed authorization requests, "
                + "which this configuration switches off")
        case (.off, _): return nil
        case (_, let endpoint?): return endpoint
        case (.required, nil):
            throw .pushedAuthorizationUnavailable("pushed authorization requests are required, "
                + "and the provider lists no pushed_authorization_request_endpoint")
        case (.whenOffered, nil) where providerRequires:
            throw .pushedAuthorizationUnavailable("the provider requires pushed authorization requests "
                + "and lists no pushed_authorization_request_endpoint")
        case (.whenOffered, nil): return nil
        }
    }
}
