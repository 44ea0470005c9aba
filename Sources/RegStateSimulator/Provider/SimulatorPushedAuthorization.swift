import Foundation

/// How the simulated provider offers pushed authorization requests (RFC 9126).
public enum SimulatorPushedAuthorization: String, Sendable, Equatable, CaseIterable {
    /// No PAR: discovery does not list the endpoint and `POST /par` is not found (the default).
    case off
    /// Discovery lists `pushed_authorization_request_endpoint` with `require_pushed_authorization_requests: false`;
    /// plain authorization requests still work.
    case offered
    /// As ``offered``, with `require_pushed_authorization_requests: true`: an authorization request without a pushed
    /// `request_uri` is refused (``SimulatorError/pushedAuthorizationRequired``).
    case required
}
