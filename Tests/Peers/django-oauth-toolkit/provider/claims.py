"""What the provider says about a user, and how it answers prompt=none."""
from oauth2_provider.oauth2_validators import OAuth2Validator


class ProfileClaims(OAuth2Validator):
    def get_additional_claims(self, request):
        """Name and email in the ID token and at userinfo; the seeded addresses count as verified."""
        user = request.user
        return {
            "preferred_username": user.username,
            "name": user.get_full_name() or user.username,
            "email": user.email,
            "email_verified": True,
        }

    # The base class raises NotImplementedError for prompt=none (a 500). By the time these run, the view has found a
    # signed-in user (without one it answers login_required itself), so a silent request may go on.
    def validate_silent_login(self, request):
        return True

    def validate_silent_authorization(self, request):
        return True

    # django-oauth-toolkit 3.4.1 predates oauthlib 4.0.1's RequestValidator.validate_device_code (without it every
    # approved device code's token request is a 500). Its token view has already answered every status but approved
    # (pending, denied, expired) before oauthlib calls this; here the approved grant's user and scopes are handed on,
    # as the library's own pre-token hook does.
    def validate_device_code(self, client_id, code, request, *args, **kwargs):
        from oauth2_provider.models import get_device_grant_model

        device = get_device_grant_model().objects.filter(device_code=code, client_id=client_id).first()
        if device is None or device.status != device.AUTHORIZED:
            return None
        request.user = device.user
        request.scopes = device.scope.split() if device.scope else []
        return "authorized"
