"""The test provider's commands (run with the kit's Python environment, OIDC_STATE_DIR set):

  peer.py serve PORT                                   migrate, seed, serve on 127.0.0.1:PORT (threaded)
  peer.py add-user USERNAME PASSWORD EMAIL FIRST LAST  add or update a user; prints its sub (the user's id)

The seed: user alice / alice-password (Alice Test, alice@example.com, sub 1) and the public client
swift-test-client (no secret, PKCE S256, redirect URIs com.example.app:/callback and http://127.0.0.1:8765/callback,
post-logout redirect http://127.0.0.1:8765/logged-out, RS256 ID tokens, no consent screen), and the public device
grant clients swift-device-client (no signing algorithm: no ID token) and swift-device-oidc-client (RS256 ID tokens).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from oauth2_provider.models import get_application_model  # noqa: E402


def put_user(username, password, email, first, last):
    user, _ = get_user_model().objects.get_or_create(username=username)
    user.set_password(password)
    user.email, user.first_name, user.last_name, user.is_active = email, first, last, True
    user.save()
    return user


def seed():
    put_user("alice", "alice-password", "alice@example.com", "Alice", "Test")
    Application = get_application_model()
    Application.objects.update_or_create(client_id="swift-test-client", defaults={
        "name": "RegState interop tests",
        "client_type": Application.CLIENT_PUBLIC,
        "client_secret": "",
        "authorization_grant_type": Application.GRANT_AUTHORIZATION_CODE,
        "redirect_uris": "com.example.app:/callback http://127.0.0.1:8765/callback",
        "post_logout_redirect_uris": "http://127.0.0.1:8765/logged-out",
        "algorithm": Application.RS256_ALGORITHM,
        "skip_authorization": True,
        "user": None,
    })
    # The device authorization grant's clients (django-oauth-toolkit gives an application one grant type). The stock
    # one has no signing algorithm (django-oauth-toolkit's default): its device token answers are stock, without an ID
    # token. The OpenID one signs RS256, so the kit's server (device.py) adds an ID token to its device token answers.
    for client_id, name, algorithm in (
        ("swift-device-client", "RegState interop tests (device, stock)", Application.NO_ALGORITHM),
        ("swift-device-oidc-client", "RegState interop tests (device, OpenID)", Application.RS256_ALGORITHM),
    ):
        Application.objects.update_or_create(client_id=client_id, defaults={
            "name": name,
            "client_type": Application.CLIENT_PUBLIC,
            "client_secret": "",
            "authorization_grant_type": Application.GRANT_DEVICE_CODE,
            "redirect_uris": "",
            "algorithm": algorithm,
            "skip_authorization": True,
            "user": None,
        })


def main(arguments):
    command = arguments[0] if arguments else ""
    if command == "serve" and len(arguments) == 2:
        call_command("migrate", verbosity=0)
        seed()
        call_command("runserver", f"127.0.0.1:{arguments[1]}", use_reloader=False)
    elif command == "add-user" and len(arguments) == 6:
        print(put_user(*arguments[1:]).pk)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
