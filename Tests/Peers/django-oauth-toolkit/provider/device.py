"""The servers of the device authorization grant (RFC 8628) as this deployment configures them.

The token endpoint's server (``OpenIDDeviceServer``): oauthlib's OpenID Connect server, whose device grant also signs an
ID token for an application that has OpenID Connect signing set up.

What is stock: oauthlib 4.0.1's `oauthlib.openid.Server` (django-oauth-toolkit's default `OIDC_SERVER_CLASS`) gives the
device grant (`urn:ietf:params:oauth:grant-type:device_code`) oauthlib's plain OAuth 2 `DeviceCodeGrant`: its token answer
is an access token and a refresh token, never an ID token, whatever the scope and whatever the application's `algorithm`
(the authorization code and refresh grants have an OpenID variant in `oauthlib.openid.connect.core.grant_types`; the
device grant has none).

What this deployment configures (the `OIDC_SERVER_CLASS` setting, settings.py): the same server, with the device grant
wrapped in oauthlib's own OpenID grant base, so that an openid-scoped device token answer gets oauthlib's ID token
(`add_id_token`: `aud`, `iat`, `at_hash`), completed and signed by django-oauth-toolkit's validator with the
application's key (`finalize_id_token`: `iss`, `sub`, `exp`, `auth_time`, `jti`, the profile claims) — exactly as the
authorization code grant's. Only for an application with a signing `algorithm` (the kit's `swift-device-oidc-client`,
RS256); one without (django-oauth-toolkit's default for a new application, the kit's `swift-device-client`) gets the
stock answer. The device grant's requests, checks, statuses and errors are oauthlib's and django-oauth-toolkit's,
unchanged. There is no authentication request, so there is no nonce to carry.

The device authorization endpoint's server (``DeviceAuthorizationServer``): django-oauth-toolkit's
`DeviceApplicationServer`, with the code lifetime of the deployment (`OIDC_DEVICE_TTL`, settings.py) handed to
oauthlib's endpoint (its `expires_in`, 1800 s by default, which `DeviceApplicationServer` does not pass on).
"""
from django.conf import settings
from oauthlib.oauth2 import DeviceApplicationServer
from oauthlib.oauth2.rfc8628.endpoints.device_authorization import DeviceAuthorizationEndpoint
from oauthlib.openid import Server
from oauthlib.openid.connect.core.grant_types.base import GrantTypeBase
from oauthlib.oauth2.rfc8628.grant_types import DeviceCodeGrant

DEVICE_CODE = "urn:ietf:params:oauth:grant-type:device_code"


class SigningTokenHandler:
    """The server's token handler, with the grant's ID token added to every token it makes for a signing client."""

    def __init__(self, grant, handler):
        self.grant, self.handler = grant, handler

    def create_token(self, request, refresh_token=False, **kwargs):
        token = self.handler.create_token(request, refresh_token, **kwargs)
        if getattr(request.client, "algorithm", ""):
            token = self.grant.add_id_token(token, self.handler, request)
        return token

    def __getattr__(self, name):
        return getattr(self.handler, name)


class OpenIDDeviceCodeGrant(GrantTypeBase):
    """oauthlib's DeviceCodeGrant, its token answer run through oauthlib's OpenID ID-token step (see the module)."""

    def __init__(self, grant: DeviceCodeGrant):
        self.proxy_target = grant

    def create_token_response(self, request, token_handler):
        return self.proxy_target.create_token_response(request, SigningTokenHandler(self, token_handler))


class OpenIDDeviceServer(Server):
    """oauthlib's OpenID Connect server, its device grant replaced by ``OpenIDDeviceCodeGrant``."""

    def __init__(self, request_validator, *args, **kwargs):
        super().__init__(request_validator, *args, **kwargs)
        self.device_code_grant = OpenIDDeviceCodeGrant(self.device_code_grant)
        self._grant_types[DEVICE_CODE] = self.device_code_grant


class DeviceAuthorizationServer(DeviceApplicationServer):
    """django-oauth-toolkit's device authorization server, its codes living `settings.DEVICE_CODE_LIFETIME` seconds."""

    def __init__(self, request_validator, verification_uri, interval=5, verification_uri_complete=None,
                 user_code_generator=None, **kwargs):
        DeviceAuthorizationEndpoint.__init__(
            self, request_validator, expires_in=settings.DEVICE_CODE_LIFETIME, interval=interval,
            verification_uri=verification_uri, verification_uri_complete=verification_uri_complete,
            user_code_generator=user_code_generator)
