#!/usr/bin/env python3
"""Sets up a freshly started Glewlwyd 2.7.5 through its admin API (127.0.0.1 only) for the interop tests.

  provision.py PORT [--nonce]

What it makes:
  - the OIDC plugin instance "oidc" (issuer http://127.0.0.1:PORT/api/oidc): authorization code with PKCE S256
    required (plain refused), refresh tokens that rotate on every use, DPoP (RFC 9449) accepted, nonces mandatory with
    --nonce, pushed authorization requests (RFC 9126) per GLW_PAR, no revocation endpoint, an end-session endpoint
    only with GLW_END_SESSION=on;
  - two public clients, redirect URIs http://127.0.0.1/callback and com.example.app:/callback (and GLW_REDIRECT_URIS):
    swift-test-public (DPoP optional) and swift-test-dpop (DPoP required at the token endpoint);
  - the users alice / alice-password (Alice Test, alice@example.test) and bob / bob-password (Bob Test,
    bob@example.test).
Environment: GLW_AT_TTL, GLW_RT_TTL (seconds), GLW_SIGNING (RS256 | ES256), GLW_PAR (off | allowed | required),
GLW_PAR_TTL (seconds), GLW_END_SESSION (off | on: RP-initiated logout at /end_session), GLW_REDIRECT_URIS (more
redirect URIs, space-separated: Glewlwyd compares a loopback URI's port exactly). Prints a JSON summary on stdout.
"""
import base64
import json
import os
import sys

import requests
from cryptography.hazmat.primitives.asymmetric import ec, rsa

SCOPES = ["openid", "profile", "email", "offline_access"]
REDIRECT_URIS = ["http://127.0.0.1/callback", "com.example.app:/callback"]
REDIRECT_URIS += os.environ.get("GLW_REDIRECT_URIS", "").split()
CLIENTS = {"swift-test-public": False, "swift-test-dpop": True}   # client id: DPoP required


def env(name, default):
    return os.environ.get(name) or default


def b64url(number, length=None):
    length = length or (number.bit_length() + 7) // 8
    return base64.urlsafe_b64encode(number.to_bytes(length, "big")).rstrip(b"=").decode()


def signing_jwk(algorithm):
    """A new private signing key as a JWK, and Glewlwyd's name for its type."""
    if algorithm == "ES256":
        numbers = ec.generate_private_key(ec.SECP256R1()).private_numbers()
        return {"kty": "EC", "crv": "P-256", "x": b64url(numbers.public_numbers.x, 32),
                "y": b64url(numbers.public_numbers.y, 32), "d": b64url(numbers.private_value, 32)}, "ecdsa"
    if algorithm != "RS256":
        sys.exit(f"GLW_SIGNING is RS256 or ES256, not {algorithm!r}")
    numbers = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_numbers()
    return {"kty": "RSA", "n": b64url(numbers.public_numbers.n, 256), "e": b64url(numbers.public_numbers.e),
            "d": b64url(numbers.d, 256), "p": b64url(numbers.p), "q": b64url(numbers.q), "dp": b64url(numbers.dmp1),
            "dq": b64url(numbers.dmq1), "qi": b64url(numbers.iqmp)}, "rsa"


class Admin:
    """The admin API, signed in as Glewlwyd's initial administrator."""

    def __init__(self, port):
        self.api = f"http://127.0.0.1:{port}/api"
        self.session = requests.Session()
        self.session.trust_env = False   # loopback: never through a proxy
        self.send("POST", "/auth/", {"username": "admin", "password": "password"})

    def send(self, method, path, body=None):
        answer = self.session.request(method, self.api + path, json=body, timeout=10)
        if answer.status_code != 200:
            sys.exit(f"provision.py: {method} {path} answered {answer.status_code}: {answer.text[:400]}")
        return answer

    def exists(self, path):
        return self.session.get(self.api + path, timeout=10).status_code == 200

    def put(self, collection, name, body):
        """Creates `name` in `collection`, or replaces it when it is there."""
        if self.exists(f"{collection}{name}"):
            self.send("PUT", f"{collection}{name}", body)
        else:
            self.send("POST", collection, body)


def plugin_parameters(port, nonce):
    algorithm = env("GLW_SIGNING", "RS256")
    jwk, key_type = signing_jwk(algorithm)
    kid = f"{algorithm.lower()}-1"
    par = env("GLW_PAR", "allowed")
    if par not in ("off", "allowed", "required"):
        sys.exit(f"GLW_PAR is off, allowed or required, not {par!r}")
    par_ttl = int(env("GLW_PAR_TTL", "90"))
    if par_ttl <= 0:
        sys.exit("GLW_PAR_TTL is a positive number of seconds")
    # The device authorization grant (RFC 8628): its codes live GLW_DEVICE_TTL seconds (600), polls are spaced
    # GLW_DEVICE_INTERVAL seconds (5).
    grants = {"code": True, "refresh": True, "token": False, "id-token": False, "none": False, "password": False,
              "client": False, "device": True}
    parameters = {
        # Identity and keys
        "iss": f"http://127.0.0.1:{port}/api/oidc", "oauth-as-iss-id": False,
        "jwt-type": key_type, "jwt-key-size": "256", "default-kid": kid, "jwks-show": True,
        "jwks-private": json.dumps({"keys": [dict(jwk, kid=kid, alg=algorithm)]}),
        "jwks-uri": "", "jwks-public": "", "jwks-public-uri": "", "key": "", "cert": "",
        # Grants and lifetimes; a refresh token is used once and replaced ("always"), and a replayed code revokes
        "access-token-duration": int(env("GLW_AT_TTL", "3600")),
        "refresh-token-duration": int(env("GLW_RT_TTL", str(14 * 24 * 3600))),
        "code-duration": 600, "refresh-token-rolling": True, "refresh-token-one-use": "always",
        "client-refresh-token-one-use-parameter": "refresh-token-one-use", "auth-type-code-revoke-replayed": True,
        "allow-non-oidc": False,
        # Scopes and claims: name and email are always in the ID token
        "allowed-scope": SCOPES, "scope": [], "additional-parameters": [], "claims": [],
        "name-claim": "mandatory", "name-claim-scope": [], "email-claim": "mandatory", "email-claim-scope": [],
        "scope-claim": "no", "scope-claim-scope": [],
        "address-claim": {"type": "no", "formatted": "", "street_address": "", "locality": "", "region": "",
                          "postal_code": "", "country": "", "mandatory": False},
        # PKCE S256 for everyone
        "pkce-allowed": True, "pkce-required": True, "pkce-required-public-client": True,
        "pkce-method-plain-allowed": False, "pkce-scopes": [],
        # Public clients; no request objects, registration, revocation or introspection; session management (the
    # end-session endpoint) per GLW_END_SESSION
        "secret-type": "public", "request-parameter-allow": False, "request-uri-allow-https-non-secure": False,
        "request-parameter-allow-encrypted": False, "request-parameter-ietf-strict": False,
        "request-maximum-exp": 3600, "encrypt-out-token-allow": False, "register-client-allowed": False,
        "session-management-allowed": env("GLW_END_SESSION", "off") == "on",
        "session-cookie-name": "GLEWLWYD2_OIDC_SID", "session-cookie-expiration": 2419200, "introspection-revocation-allowed": False,
        "introspection-revocation-auth-scope": [], "introspection-revocation-allow-target-client": True,
        "client-pubkey-parameter": "", "client-jwks-parameter": "jwks", "client-jwks_uri-parameter": "jwks_uri",
        # DPoP: proofs at most 60 s old; a client's "DPoP required" flag lives in this client property
        "oauth-dpop-allowed": True, "oauth-dpop-iat-duration": 60, "oauth-dpop-iat-gap-duration": 0,
        "oauth-dpop-dpop_bound_access_tokens-property": "dpop_bound_access_tokens",
        "oauth-dpop-nonce-mandatory": nonce, "oauth-dpop-nonce-counter": 10,
        # PAR is plugin-wide (Glewlwyd reads no per-client flag); the request_uri prefix is RFC 9126's
        "oauth-par-allowed": par != "off", "oauth-par-required": par == "required",
        "oauth-par-request_uri-prefix": "urn:ietf:params:oauth:request_uri:", "oauth-par-duration": par_ttl,
        "resource-allowed": False, "oauth-rar-allowed": False, "oauth-ciba-allowed": False,
        "oauth-fapi-check-all": False,
        "device-authorization-expiration": int(env("GLW_DEVICE_TTL", "600")),
        "device-authorization-interval": int(env("GLW_DEVICE_INTERVAL", "5")),
    }
    parameters.update({f"auth-type-{grant}-enabled": on for grant, on in grants.items()})
    return parameters, {"signing": algorithm, "par": par, "par_request_uri_ttl": par_ttl}


def main(arguments):
    if not arguments or not arguments[0].isdigit():
        sys.exit(__doc__)
    port, nonce = int(arguments[0]), "--nonce" in arguments[1:]
    admin = Admin(port)

    # Every scope the clients ask for needs a password sign-in, so a login session counts for it.
    for scope in SCOPES:
        admin.put("/scope/", scope, {"name": scope, "display_name": scope, "description": f"the {scope} scope",
                                     "password_required": True, "password_max_age": 0, "scheme": {}})

    parameters, summary = plugin_parameters(port, nonce)
    plugin = {"module": "oidc", "name": "oidc", "display_name": "OpenID Connect (interop tests)", "enabled": True,
              "parameters": parameters}
    if admin.exists("/mod/plugin/oidc"):
        admin.send("PUT", "/mod/plugin/oidc", plugin)
        admin.send("PUT", "/mod/plugin/oidc/reset")
    else:
        admin.send("POST", "/mod/plugin/", plugin)

    # The client database drops properties its data format does not list: add the DPoP flag, then re-enable the
    # module, which reads its format only when enabled.
    module = next(m for m in admin.send("GET", "/mod/client/").json() if m["name"] == "database")
    module["parameters"]["data-format"]["dpop_bound_access_tokens"] = {"multiple": False, "read": True, "write": True}
    admin.send("PUT", "/mod/client/database", module)
    admin.send("PUT", "/mod/client/database/disable")
    admin.send("PUT", "/mod/client/database/enable")

    for client_id, dpop_required in CLIENTS.items():
        client = {"client_id": client_id, "name": f"RegState interop ({'DPoP required' if dpop_required else 'DPoP optional'})",
                  "description": "", "enabled": True, "confidential": False, "redirect_uri": REDIRECT_URIS,
                  "authorization_type": ["code", "refresh_token", "device_authorization"],
                  "token_endpoint_auth_method": ["none"],
                  "scope": SCOPES}
        if dpop_required:
            client["dpop_bound_access_tokens"] = "1"
        admin.put("/client/", client_id, client)

    admin.put("/user/", "alice", {"username": "alice", "password": "alice-password", "name": "Alice Test",
                                  "email": "alice@example.test", "enabled": True, "scope": SCOPES})
    admin.put("/user/", "bob", {"username": "bob", "password": "bob-password", "name": "Bob Test",
                                "email": "bob@example.test", "enabled": True, "scope": SCOPES})

    print(json.dumps(dict(summary, issuer=f"http://127.0.0.1:{port}/api/oidc", clients=CLIENTS,
                          redirect_uris=REDIRECT_URIS, users=["alice", "bob"], dpop_nonce_mandatory=nonce)))


if __name__ == "__main__":
    main(sys.argv[1:])
