"""Routes: the login page, discovery (completed, below) and django-oauth-toolkit's endpoints under /o/."""
import json

from django.contrib.auth.views import LoginView
from django.urls import include, path
from oauth2_provider.views import ConnectDiscoveryInfoView, DeviceAuthorizationView

from device import DeviceAuthorizationServer


class CompleteDiscovery(ConnectDiscoveryInfoView):
    """The OpenID discovery document, with what django-oauth-toolkit lists only in its RFC 8414 metadata
    (revocation, introspection) and the grants this provider really offers (no one-time-code grant)."""

    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        document = json.loads(response.content)
        document.update(
            revocation_endpoint=request.build_absolute_uri("/o/revoke_token/"),
            introspection_endpoint=request.build_absolute_uri("/o/introspect/"),
            grant_types_supported=["authorization_code", "refresh_token"],
        )
        response.content = json.dumps(document)
        return response


class DeviceAuthorization(DeviceAuthorizationView):
    """The device authorization endpoint, as django-oauth-toolkit 3.4.1 serves it, except for one member: oauthlib
    4.0.1 adds `scope` to its answer (not an RFC 8628 member), and django-oauth-toolkit's DeviceCodeResponse refuses
    it, so the stock view answers every request with a 500. The member is dropped before the view reads it; nothing
    else in the answer changes (docs/Providers.md). Its server hands oauthlib the deployment's code lifetime (device.py)."""

    server_class = DeviceAuthorizationServer

    def create_device_authorization_response(self, request):
        headers, response, status = super().create_device_authorization_response(request)
        if isinstance(response, dict):
            response.pop("scope", None)
        return headers, response, status


urlpatterns = [
    path("accounts/login/", LoginView.as_view()),
    path("o/.well-known/openid-configuration", CompleteDiscovery.as_view()),
    path("o/device-authorization/", DeviceAuthorization.as_view()),
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
]
