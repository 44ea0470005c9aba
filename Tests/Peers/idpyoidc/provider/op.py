#!/usr/bin/env python3
"""idpyoidc (IdentityPython's OpenID provider library) as a headless OpenID provider on loopback, for the interop tests.

  op.py PORT STATE_DIR

Modelled on the Flask example OP that ships with idpyoidc (example/flask_op: its views, trimmed to what a native app
uses): discovery, JWKS, authorization with a username/password form, PAR, token, userinfo, revocation and RP-initiated
logout. One public client (`swift-test-client`, PKCE S256 required) and two users (config.py).

STATE_DIR keeps the signing keys (so a restart keeps every signature valid), the sessions (`sessions.json`, written
after every request that changes them, so a restart keeps every live token) and `ledger.sqlite3`: one row per refresh
token ever issued (its SHA-256 in hex), with whether idpyoidc holds it revoked, and each user's `sub`, for the tests
to read. Plain HTTP, throwaway keys and
passwords: never expose it.
"""
import hashlib
import json
import os
import sqlite3
import sys
import threading
import traceback
from urllib.parse import urlparse

from flask import Flask, Response, make_response, redirect, render_template, request
from idpyoidc.message.oauth2 import ResponseMessage
from idpyoidc.message.oidc import AccessTokenRequest, AuthorizationRequest
from idpyoidc.server import Server
from idpyoidc.server.configure import OPConfiguration
from idpyoidc.server.exception import FailedAuthentication
from idpyoidc.server.oidc.token import Token
from idpyoidc.server.session.grant import Grant

import config

port, state = int(sys.argv[1]), sys.argv[2]
here = os.path.dirname(os.path.realpath(__file__))
server = Server(OPConfiguration(config.provider(port, state), base_path=state), cwd=here)
context = server.context
context.cdb.update(config.clients())
if "dpop" in context.add_on:
    # idpyoidc 5.0.0's DPoP add-on writes dpop_signing_alg_values_supported into the provider metadata before the
    # Server rebuilds that metadata from its endpoints, so discovery would never say DPoP is offered (and the refresh
    # grant, which looks for the entry, would never bind). Put back what the add-on wrote.
    context.provider_info["dpop_signing_alg_values_supported"] = context.add_on["dpop"]["algs_supported"]
sessions_file = os.path.join(state, "sessions.json")
ledger_file = os.path.join(state, "ledger.sqlite3")
app = Flask("idpyoidc-peer", template_folder=os.path.join(here, "templates"))


def restore_sessions():
    """After a restart: the sessions (grants and every token) as the last request left them."""
    if os.path.exists(sessions_file):
        with open(sessions_file) as saved:
            context.session_manager.load(json.load(saved), init_args={
                "upstream_get": server.upstream_get, "handler": context.session_manager.token_handler})


def save_sessions():
    """Writes the sessions (temp file, then rename: a SIGKILL leaves the old or the new file) and the ledger."""
    temporary = sessions_file + ".tmp"
    with open(temporary, "w") as saved:
        json.dump(context.session_manager.dump(), saved)
    os.replace(temporary, sessions_file)
    tokens, subjects = [], []
    for key, item in context.session_manager.db.db.items():
        if isinstance(item, Grant):
            subjects.append((key.split(";;")[0], item.sub))
            for token in item.issued_token:
                if token.token_class == "refresh_token":
                    tokens.append((hashlib.sha256(token.value.encode()).hexdigest(), 1 if token.revoked else 0))
    with sqlite3.connect(ledger_file, timeout=20) as ledger:
        ledger.execute("create table if not exists refresh_token (token_sha256 text primary key, revoked integer)")
        ledger.execute("create table if not exists subject (username text, sub text, primary key (username, sub))")
        ledger.executemany("insert or replace into refresh_token values (?, ?)", tokens)
        ledger.executemany("insert or ignore into subject values (?, ?)", subjects)


@app.after_request
def persist(response):
    if request.endpoint not in ("discovery", "jwks", "post_logout"):
        save_sessions()
    return response


def http_info():
    return {
        "headers": {k: v for k, v in request.headers.items(lower=True) if k not in ("cookie", "user-agent")},
        "method": request.method,
        "url": request.url,
        "cookie": [{"name": k, "value": v} for k, v in request.cookies.items()],
    }


def add_cookies(response, specs):
    for spec in specs if isinstance(specs, list) else [specs]:
        options = {k: v for k, v in spec.items() if k != "name"}
        options.update(path="/", samesite="Lax")
        response.set_cookie(spec["name"], **options)


def do_response(endpoint, request_args, error="", **args) -> Response:
    info = endpoint.do_response(request=request_args, error=error, **args)
    placement = info.get("response_placement", endpoint.response_placement)
    if placement == "body":
        response = make_response(info["response"], info.get("response_code", 400 if error else 200))
    else:
        response = redirect(info["response"])
    for key, value in info["http_headers"]:
        response.headers[key] = value
    if "cookie" in info:
        add_cookies(response, info["cookie"])
    return response


def error_response(error, description, status=400):
    response = make_response(ResponseMessage(error=error, error_description=description).to_json(), status)
    response.headers["Content-Type"] = "application/json"
    return response


def service(name):
    """One endpoint, as the example's service_endpoint: parse (client authentication, add-ons), process, answer."""
    endpoint = server.get_endpoint(name)
    if request.method == "GET":
        arguments = request.args.to_dict()
    else:
        arguments = request.get_data(as_text=True) or request.form.to_dict()
        if request.form:
            arguments = request.form.to_dict()
    try:
        parsed = endpoint.parse_request(arguments, http_info=http_info())
    except Exception as error:  # idpyoidc raises plain exceptions for refused requests; the example answers 400
        app.logger.warning("refused at %s: %r", name, error, exc_info=True)
        return error_response("invalid_request", str(error))
    if isinstance(parsed, ResponseMessage) and "error" in parsed:
        status = 401 if parsed["error"] in ("invalid_token", "invalid_client") else 400
        return error_response(parsed["error"], parsed.get("error_description", ""), status)
    try:
        if isinstance(endpoint, Token):
            result = endpoint.process_request(AccessTokenRequest(**parsed), http_info=http_info())
        else:
            result = endpoint.process_request(parsed, http_info=http_info())
    except Exception as error:
        app.logger.error("".join(traceback.format_exception(error)))
        return error_response("invalid_request", str(error))
    if "redirect_location" in result:
        return redirect(result["redirect_location"])
    if "http_response" in result:
        body = result["http_response"]
        if isinstance(body, str):  # a page (the login form)
            return make_response(body, 200)
        response = make_response(json.dumps(body), 200)  # as the example; RFC 9126 §2.2 says 201 (any 2xx is read)
        response.headers["Content-Type"] = "application/json"
        return response
    if isinstance(result, ResponseMessage) and "error" in result:
        return error_response(result["error"], result.get("error_description", ""))
    return do_response(endpoint, parsed, **result)


@app.route("/.well-known/openid-configuration", endpoint="discovery")
def discovery():
    return service("provider_config")


@app.route("/jwks", endpoint="jwks")
def jwks():
    return context.keyjar.export_jwks()


@app.route("/authorization")
def authorization():
    return service("authorization")


@app.route("/pushed_authorization", methods=["POST"])
def pushed_authorization():
    return service("pushed_authorization")


@app.route("/token", methods=["POST"])
def token():
    return service("token")


@app.route("/userinfo", methods=["GET", "POST"])
def userinfo():
    return service("userinfo")


@app.route("/revocation", methods=["POST"])
def revocation():
    return service("token_revocation")


@app.route("/session")
def end_session():
    return service("session")


@app.route("/verify/user", methods=["POST"])
def verify_user():
    """The login form's target: checks the password, then finishes the authorization request it carried."""
    method = context.authn_broker.get_method_by_id("user")
    form = request.form.to_dict()
    try:
        username = method.verify(**form)
    except FailedAuthentication:
        return make_response("Authentication failed", 403)
    token = method.unpack_token(form["token"])
    authorization_request = AuthorizationRequest().from_urlencoded(token["query"])
    endpoint = server.get_endpoint("authorization")
    session_id = endpoint.create_session(authorization_request, username, token["authn_class_ref"], token["iat"],
                                         method)
    result = endpoint.authz_part2(request=authorization_request, session_id=session_id)
    if isinstance(result, ResponseMessage) and "error" in result:
        return make_response(result.to_json(), 400)
    return do_response(endpoint, request, **result)


@app.route("/verify_logout", methods=["GET", "POST"])
def verify_logout():
    """The end-session request's confirmation page (idpyoidc always asks)."""
    return render_template("logout.html", op=urlparse(context.issuer).hostname, do_logout="rp_logout",
                           sjwt=request.args["sjwt"])


@app.route("/rp_logout", methods=["GET", "POST"])
def rp_logout():
    endpoint = server.get_endpoint("session")
    info = endpoint.unpack_signed_jwt(request.form["sjwt"])
    endpoint.do_verified_logout(alla="logout" in request.form, **info)
    response = redirect(info["redirect_uri"])
    for cookie in endpoint.kill_cookies():
        add_cookies(response, cookie)
    return response


@app.route("/post_logout", endpoint="post_logout")
def post_logout():
    return render_template("post_logout.html")


def one_request_at_a_time(wsgi_app):
    """With IDPY_THREADED=on: a thread per connection, so a connection that sends nothing (a browser's preconnected or
    idle keep-alive socket) holds only its own thread; the requests themselves still run one at a time (idpyoidc's
    session store and the files written after each request are not made for concurrent writers)."""
    lock = threading.Lock()

    def locked(environ, start_response):
        with lock:
            return wsgi_app(environ, start_response)
    return locked


if __name__ == "__main__":
    restore_sessions()
    save_sessions()
    threaded = os.environ.get("IDPY_THREADED", "off") == "on"
    if threaded:
        app.wsgi_app = one_request_at_a_time(app.wsgi_app)
    app.run(host="127.0.0.1", port=port, debug=False, use_reloader=False, threaded=threaded)
