"""Settings of the test provider: one Django project serving django-oauth-toolkit on loopback.

State (SQLite database, RS256 signing key) lives in $OIDC_STATE_DIR, so a restart with the same directory keeps
every token and the key. Lifetimes come from the OIDC_* environment variables start.sh documents.
"""
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
STATE = Path(os.environ["OIDC_STATE_DIR"])
STATE.mkdir(parents=True, exist_ok=True)


def signing_key() -> str:
    """The provider's RS256 key in PEM, made on the first start and read on every later one."""
    path = STATE / "signing-key.pem"
    if not path.exists():
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import rsa
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return path.read_text()


def seconds(name, default):
    value = os.environ.get(name, "")
    return int(value) if value else default


# The port the server listens on (start.sh passes it): the device grant's verification page is an absolute URL.
PORT = os.environ.get("OIDC_PORT", "8000")


# Django itself: loopback only, a throwaway secret, fast (insecure) password hashing — this serves tests, nothing else.
SECRET_KEY = "regstate-test-provider"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
ROOT_URLCONF = "urls"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
USE_TZ = True
INSTALLED_APPS = ["django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions", "oauth2_provider"]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [HERE / "templates"],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
}]
# Many renewals at once: a write waits for the lock (IMMEDIATE transactions, 20 s) instead of failing with
# "database is locked".
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": STATE / "db.sqlite3",
                         "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"}}}
LOGIN_URL = "/accounts/login/"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
LOGGING = {"version": 1, "handlers": {"stderr": {"class": "logging.StreamHandler"}},
           "loggers": {"django.request": {"handlers": ["stderr"], "level": "ERROR"}}}

# The authorization server: OIDC with PKCE S256 only, rotating refresh tokens with reuse detection, RP-initiated
# logout that does not ask when the request names the user (id_token_hint).
OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": signing_key(),
    "OAUTH2_VALIDATOR_CLASS": "claims.ProfileClaims",
    # The token endpoint's server: oauthlib's OpenID Connect server, whose device grant also signs an ID token for an
    # application with a signing algorithm (device.py says what is stock and what this adds).
    "OIDC_SERVER_CLASS": "device.OpenIDDeviceServer",
    "SCOPES": {"openid": "Sign you in", "profile": "Your name", "email": "Your email address",
               "offline_access": "Stay signed in"},
    "DEFAULT_SCOPES": ["openid"],
    "OIDC_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": ["none", "client_secret_basic", "client_secret_post"],
    "PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": seconds("OIDC_RT_GRACE", 0),
    "ACCESS_TOKEN_EXPIRE_SECONDS": seconds("OIDC_AT_TTL", 3600),
    "ID_TOKEN_EXPIRE_SECONDS": seconds("OIDC_IDT_TTL", 3600),
    # Counted from the access token's expiry; None: a refresh token never expires by age.
    "REFRESH_TOKEN_EXPIRE_SECONDS": seconds("OIDC_RT_TTL", None),
    "OIDC_RP_INITIATED_LOGOUT_ENABLED": True,
    "OIDC_RP_INITIATED_LOGOUT_ALWAYS_PROMPT": False,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https", "com.example.app"],
    # The device authorization grant (RFC 8628, since django-oauth-toolkit 3.2) at /o/device-authorization/: the
    # user types the code at /o/device/ (signed in first), then accepts or denies; the complete URI fills the code in.
    "OAUTH_DEVICE_VERIFICATION_URI": f"http://127.0.0.1:{PORT}/o/device/",
    "OAUTH_DEVICE_VERIFICATION_URI_COMPLETE": f"http://127.0.0.1:{PORT}/o/device/?user_code={{user_code}}",
    "DEVICE_FLOW_INTERVAL": seconds("OIDC_DEVICE_INTERVAL", 5),
}
# How long a device code lives (oauthlib's default: 1800 s); device.DeviceAuthorizationServer hands it to oauthlib.
DEVICE_CODE_LIFETIME = seconds("OIDC_DEVICE_TTL", 1800)
