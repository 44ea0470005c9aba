import Testing

/// Interop tests: the library and the `regstate` CLI against two real OpenID providers on loopback, so the engine
/// learns no single provider's habits: django-oauth-toolkit (`Tests/Peers/django-oauth-toolkit/`: refresh-token rotation
/// with reuse detection and grace, PKCE required, RFC 7009 revocation) and Glewlwyd (`Tests/Peers/glewlwyd/`:
/// rotation without grace, retired tokens refused with a bare HTTP 400, no revocation, RS256 or ES256 signing).
/// The tests whose behaviour is meant to be the same take a ``PeerKind`` argument and run against both.
///
/// Every test starts its own provider on a free port with its own state directory and stops it when done, also on
/// failure. The whole tree runs serialized: tests kill and pause their providers and use 2-second timeouts, which a
/// 2-core machine running several providers at once could turn into flakes. Without a usable provider the tests are
/// skipped with the reason, except under `CI=true`, where they fail with it.
@Suite("Interop", .serialized)
enum InteropTests {}
