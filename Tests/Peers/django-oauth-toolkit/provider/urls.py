"""Routes: the login page, discovery (completed, below) and django-oauth-toolkit's endpoints under /o/."""
import json

from django.contrib.auth.views import LoginView
from django.urls import include, path
from oauth2_provider.views import ConnectDiscoveryInfoView


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


urlpatterns = [
    path("accounts/login/", LoginView.as_view()),
    path("o/.well-known/openid-configuration", CompleteDiscovery.as_view()),
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
]
