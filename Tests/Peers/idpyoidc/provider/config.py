"""The provider's configuration for op.py: endpoints, add-ons, token lifetimes, the client and the users.

Knobs (environment, seconds): IDPY_AT_TTL access token (3600), IDPY_RT_TTL refresh token (86400), IDPY_PAR_TTL the
`expires_in` a pushed request_uri is given (90), IDPY_SIGNING the client's ID-token algorithm, RS256 or ES256 (RS256);
IDPY_DPOP on | off (off); IDPY_PAR on | off (off): the pushed authorization request endpoint.
"""
import json
import os

from idpyoidc.server.user_authn.authn_context import INTERNETPROTOCOLPASSWORD

CLIENT_ID = "swift-test-client"
ES256_CLIENT_ID = "swift-test-es256"
REDIRECT_URIS = ["com.example.app:/callback", "http://127.0.0.1:8765/callback"]
POST_LOGOUT_REDIRECT_URI = "http://127.0.0.1:8765/logged-out"
SCOPES = ["openid", "profile", "email", "offline_access"]
USERS = {
    "alice": {"password": "alice-password", "name": "Alice Test", "given_name": "Alice", "family_name": "Test",
              "email": "alice@example.org", "email_verified": True},
    "bob": {"password": "bob-password", "name": "Bob Test", "given_name": "Bob", "family_name": "Test",
            "email": "bob@example.org", "email_verified": True},
}


def seconds(name, default):
    return int(os.environ.get(name, default))


def session_secret(state):
    """The session encrypter's key and salt, made once per state directory."""
    path = os.path.join(state, "session_secret.json")
    if not os.path.exists(path):
        with open(path, "w") as file:
            json.dump({"key": os.urandom(32).hex(), "salt": os.urandom(16).hex()}, file)
    with open(path) as file:
        secret = json.load(file)
    return {"key": bytes.fromhex(secret["key"]), "salt": bytes.fromhex(secret["salt"])}


def dpop():
    """IDPY_DPOP=on: DPoP proofs are required at the token and userinfo endpoints (off: DPoP is not offered)."""
    return os.environ.get("IDPY_DPOP", "off") == "on"


def clients():
    """The suite's public clients: `swift-test-client` (ID tokens RS256, or IDPY_SIGNING) and `swift-test-es256`
    (ES256), otherwise the same."""
    return {CLIENT_ID: client(CLIENT_ID, os.environ.get("IDPY_SIGNING", "RS256")),
            ES256_CLIENT_ID: client(ES256_CLIENT_ID, "ES256")}


def client(client_id, signing):
    """A public client: no secret (RFC 8252), PKCE S256 required, refresh tokens rotate on every use."""
    return {
        "client_id": client_id,
        "client_salt": "salted-peer",
        "redirect_uris": [(uri, {}) for uri in REDIRECT_URIS],
        "post_logout_redirect_uri": (POST_LOGOUT_REDIRECT_URI, ""),
        "token_endpoint_auth_method": "none",
        "response_types": ["code"],
        "grant_types": ["authorization_code", "refresh_token"],
        "allowed_scopes": SCOPES,
        "id_token_signed_response_alg": signing,
        "revoke_refresh_on_issue": True,
    }


def provider(port, state):
    """The OP's configuration (idpyoidc's OPConfiguration dictionary), with keys and users kept in `state`."""
    issuer = f"http://127.0.0.1:{port}"
    passwords = os.path.join(state, "passwd.json")
    users = os.path.join(state, "users.json")
    with open(passwords, "w") as file:
        json.dump({name: user["password"] for name, user in USERS.items()}, file)
    with open(users, "w") as file:
        json.dump({name: {k: v for k, v in user.items() if k != "password"} for name, user in USERS.items()}, file)
    public_client = {"client_authn_method": ["none"]}
    crypt = {"class": "cryptojwt.jwe.fernet.FernetEncrypter", "kwargs": session_secret(state)}
    return {
        "issuer": issuer,
        "entity_id": issuer,
        "httpc_params": {"verify": False},
        "preference": {"scopes_supported": SCOPES, "grant_types_supported": ["authorization_code", "refresh_token"]},
        "keys": {
            "private_path": os.path.join(state, "jwks.json"),
            "key_defs": [{"type": "RSA", "use": ["sig"]}, {"type": "EC", "crv": "P-256", "use": ["sig"]}],
            "read_only": False,
            "uri_path": "jwks",
        },
        "add_on": {
            "pkce": {"function": "idpyoidc.server.oauth2.add_on.pkce.add_support",
                     "kwargs": {"essential": True, "code_challenge_method": "S256"}},
        } | ({
            # DPoP (RFC 9449): idpyoidc's add-on checks a proof on every request to these endpoints (none without one).
            "dpop": {"function": "idpyoidc.server.oauth2.add_on.dpop.add_support",
                     "kwargs": {"dpop_signing_alg_values_supported": ["ES256"],
                                "dpop_endpoints": ["token", "userinfo"]}},
        } if dpop() else {}),
        "authz": {
            "class": "idpyoidc.server.authz.AuthzHandling",
            "kwargs": {"grant_config": {
                "usage_rules": {
                    "authorization_code": {"supports_minting": ["access_token", "refresh_token", "id_token"],
                                           "max_usage": 1},
                    "access_token": {},
                    "refresh_token": {"supports_minting": ["access_token", "refresh_token", "id_token"]},
                },
                "expires_in": 43200,
            }},
        },
        "authentication": {
            "user": {
                "acr": INTERNETPROTOCOLPASSWORD,
                "class": "idpyoidc.server.user_authn.user.UserPassJinja2",
                "kwargs": {"verify_endpoint": "/verify/user", "template": "user_pass.jinja2",
                           "db": {"class": "idpyoidc.server.util.JSONDictDB", "kwargs": {"filename": passwords}},
                           "page_header": "Sign in to the idpyoidc test provider"},
            }
        },
        "template_dir": os.path.join(os.path.dirname(os.path.realpath(__file__)), "templates"),
        "cookie_handler": {
            "class": "idpyoidc.server.cookie_handler.CookieHandler",
            "kwargs": {
                "keys": {"private_path": os.path.join(state, "cookie_jwks.json"), "read_only": False,
                         "key_defs": [{"type": "OCT", "use": ["enc"], "kid": "enc"},
                                      {"type": "OCT", "use": ["sig"], "kid": "sig"}]},
                "name": {"session": "oidc_op", "register": "oidc_op_rp", "session_management": "sman"},
                # Plain HTTP on loopback: a Secure cookie would never come back, and there would be no provider session.
                "flags": {"samesite": "Lax", "httponly": True, "secure": False},
            },
        },
        "claims_interface": {"class": "idpyoidc.server.session.claims.ClaimsInterface", "kwargs": {}},
        "session_params": {
            # Session ids are encrypted with this key and `sub` is hashed with this salt: kept in STATE_DIR so that
            # a restart still knows every token it issued (idpyoidc draws both at random per process).
            "encrypter": crypt,
            "sub_func": {"public": {"class": "idpyoidc.server.session.manager.PublicID",
                                    "kwargs": {"filename": os.path.join(state, "public_salt")}}},
        },
        "endpoint": {
            "provider_config": {"path": ".well-known/openid-configuration",
                                "class": "idpyoidc.server.oidc.provider_config.ProviderConfiguration", "kwargs": {}},
            "authorization": {"path": "authorization", "class": "idpyoidc.server.oidc.authorization.Authorization",
                              "kwargs": {"response_types_supported": ["code"], "response_modes_supported": ["query"],
                                         "request_uri_parameter_supported": True,
                                         "client_authn_method": ["request_param", "public", "pushed_authz"]}},
            "token": {"path": "token", "class": "idpyoidc.server.oidc.token.Token",
                      "kwargs": {"revoke_refresh_on_issue": True, **public_client}},
            # Which header schemes userinfo reads the access token from. Left open, idpyoidc tries every client
            # authentication method in turn, and its "none" method (which yields no token) answers before the DPoP
            # add-on's "dpop" one: every `Authorization: DPoP` request would fail (KeyError 'token').
            "userinfo": {"path": "userinfo", "class": "idpyoidc.server.oidc.userinfo.UserInfo",
                         "kwargs": {"client_authn_method": ["bearer_header"] + (["dpop"] if dpop() else [])}},
            "token_revocation": {"path": "revocation",
                                 "class": "idpyoidc.server.oauth2.token_revocation.TokenRevocation",
                                 "kwargs": public_client},
            "end_session": {"path": "session", "class": "idpyoidc.server.oidc.session.Session",
                            "kwargs": {"logout_verify_url": "verify_logout", "post_logout_uri_path": "post_logout",
                                       "signing_alg": "ES256"}},
        } | ({
            "pushed_authorization": {"path": "pushed_authorization",
                                     "class": "idpyoidc.server.oauth2.pushed_authorization.PushedAuthorization",
                                     "kwargs": {"ttl": seconds("IDPY_PAR_TTL", 90), **public_client}},
        } if os.environ.get("IDPY_PAR", "off") == "on" else {}),
        "token_handler_args": {
            "jwks_def": {"private_path": os.path.join(state, "token_jwks.json"), "read_only": False,
                         "key_defs": [{"type": "OCT", "kid": "code", "use": ["enc"]},
                                      {"type": "OCT", "kid": "token", "use": ["enc"]},
                                      {"type": "OCT", "kid": "refresh", "use": ["enc"]}]},
            # The opaque tokens are encrypted with `crypt_conf`, drawn at random per process unless given.
            "code": {"kwargs": {"lifetime": 600, "crypt_conf": crypt}},
            "token": {"kwargs": {"lifetime": seconds("IDPY_AT_TTL", 3600), "crypt_conf": crypt}},
            "refresh": {"kwargs": {"lifetime": seconds("IDPY_RT_TTL", 86400), "crypt_conf": crypt}},
            "id_token": {"class": "idpyoidc.server.token.id_token.IDToken",
                         "kwargs": {"add_claims_by_scope": True}},
        },
        "userinfo": {"class": "idpyoidc.server.user_info.UserInfo", "kwargs": {"db_file": users}},
        "login_hint2acrs": {"class": "idpyoidc.server.login_hint.LoginHint2Acrs",
                            "kwargs": {"scheme_map": {"email": [INTERNETPROTOCOLPASSWORD]}}},
    }
