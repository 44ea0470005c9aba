import Testing

/// Interop tests: the library and the `regstate` CLI against three real OpenID providers on loopback, so the engine
/// learns no single provider's habits: django-oauth-toolkit (`Tests/Peers/django-oauth-toolkit/`: refresh-token rotation
/// with reuse detection and grace, PKCE required, RFC 7009 revocation), Glewlwyd (`Tests/Peers/glewlwyd/`: rotation
/// without grace, retired tokens refused with a bare HTTP 400, no revocation, RS256 or ES256 signing, DPoP, PAR) and
/// idpyoidc (`Tests/Peers/idpyoidc/`: RFC 9207 `iss`, `prompt=consent` for `offline_access`, `invalid_request` for a
/// retired token, no reuse detection, DPoP and PAR with pinned departures). The tests whose behaviour is meant to be
/// the same take a ``PeerKind`` argument and run against each; `REGSTATE_INTEROP_PEERS` picks providers.
///
/// A test that stops, pauses or counts its provider starts its own on a free port with its own state directory; a
/// suite whose tests only read their own tokens shares one per kind (``SuitePeers``). Each is stopped when done, also
/// on failure. The whole tree runs serialized: tests kill and pause their providers and use 2-second timeouts, which
/// a 2-core machine running several providers at once could turn into flakes. Without a usable provider the tests are
/// skipped with the reason, except under `CI=true`, where they fail with it.
@Suite("Interop", .serialized)
enum InteropTests {}
