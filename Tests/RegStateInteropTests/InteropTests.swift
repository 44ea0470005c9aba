import Testing

/// Interop tests: the library and the `regstate` CLI against django-oauth-toolkit, a real OAuth 2.0 / OIDC provider
/// started from `../shared/interop-peer/` on loopback (refresh-token rotation with reuse detection, PKCE required,
/// RFC 7009 revocation).
///
/// Every test starts its own provider on a free port with its own state directory and stops it when done, also on
/// failure. The whole tree runs serialized: tests kill and pause their providers and use 2-second timeouts, which a
/// 2-core machine running several providers at once could turn into flakes. Without a usable provider the tests are
/// skipped with the reason, except under `CI=true`, where they fail with it.
@Suite("Interop", .serialized)
enum InteropTests {}
