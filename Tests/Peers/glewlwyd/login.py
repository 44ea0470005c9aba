#!/usr/bin/env python3
"""Plays the user at Glewlwyd for one authorization URL and prints the callback URL (with code and state).

  login.py [--user alice] [--password alice-password] [--scope S] [--redirect-uri URI] AUTHORIZATION_URL

Run it with the kit's Python environment (requests). The steps are the browser's, as API calls: sign in with the
password scheme, grant the client the requested scopes, open the authorization URL; when Glewlwyd sends the browser to
its login page for a confirmation, come back with "g_continue" as that page's Continue button does. The callback is
the first redirect that leaves the server (or starts with --redirect-uri).

A pushed authorization URL (RFC 9126: only client_id and request_uri) has no scope to grant: it is read from
Glewlwyd's redirect to its login page, or given with --scope. Loopback URLs only; the callback is never followed.
"""
import argparse
import sys
from urllib.parse import parse_qs, urlsplit

import requests

LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def main():
    options = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    options.add_argument("--user", default="alice")
    options.add_argument("--password", default="alice-password")
    options.add_argument("--scope", help="the scope to grant when the URL names none (a pushed request)")
    options.add_argument("--redirect-uri", help="what the callback starts with when the URL names no redirect_uri")
    options.add_argument("url")
    arguments = options.parse_args()

    url = urlsplit(arguments.url)
    if url.hostname not in LOOPBACK:
        sys.exit("login.py: only loopback authorization URLs")
    server = f"{url.scheme}://{url.netloc}"
    query = parse_qs(url.query)
    client_id = query["client_id"][0]
    redirect_uri = query.get("redirect_uri", [arguments.redirect_uri])[0]

    def callback(answer):
        """The callback URL when this answer redirects off the server, else None."""
        location = answer.headers.get("Location", "")
        if answer.status_code not in (301, 302, 303) or not location:
            return None
        if redirect_uri:
            return location if location.startswith(redirect_uri) else None
        return None if location.startswith(server) or location.startswith("/") else location

    browser = requests.Session()
    browser.trust_env = False
    signed_in = browser.post(f"{server}/api/auth/", json={"username": arguments.user, "password": arguments.password},
                             timeout=10)
    if signed_in.status_code != 200:
        sys.exit(f"login.py: sign-in refused ({signed_in.status_code})")

    scope = query.get("scope", [arguments.scope])[0]
    if scope is None:
        first = browser.get(arguments.url, allow_redirects=False, timeout=10)
        if callback(first):
            print(callback(first))
            return
        login_page = urlsplit(first.headers.get("Location", ""))
        scope = parse_qs(login_page.query).get("scope", ["openid"])[0]
    granted = browser.put(f"{server}/api/auth/grant/{client_id}", json={"scope": scope}, timeout=10)
    if granted.status_code != 200:
        sys.exit(f"login.py: consent refused ({granted.status_code}): {granted.text[:200]}")

    for attempt in (arguments.url, arguments.url + "&g_continue"):
        answer = browser.get(attempt, allow_redirects=False, timeout=10)
        if callback(answer):
            print(callback(answer))
            return
        if answer.status_code not in (301, 302, 303):
            break
    sys.exit(f"login.py: no callback: {answer.status_code} {answer.headers.get('Location', '')!r} {answer.text[:200]}")


if __name__ == "__main__":
    main()
