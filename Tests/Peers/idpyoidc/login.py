#!/usr/bin/env python3
"""Plays the user at the idpyoidc provider for one authorization URL and prints the callback URL (code, state, iss).

  login.py [--user alice] [--password alice-password] AUTHORIZATION_URL

Run it with the kit's Python environment (requests). The steps are the browser's: open the authorization URL, which
shows idpyoidc's username/password form (its hidden `token` carries the authorization request, signed by the
provider), submit the form, and print where the provider then sends the browser. A pushed authorization URL (RFC 9126:
only client_id and request_uri) works the same way. Loopback URLs only; the callback is never followed.
"""
import argparse
import html
import re
import sys
from urllib.parse import urljoin, urlsplit

import requests

LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def main():
    options = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    options.add_argument("--user", default="alice")
    options.add_argument("--password", default="alice-password")
    options.add_argument("url")
    arguments = options.parse_args()
    if urlsplit(arguments.url).hostname not in LOOPBACK:
        sys.exit("login.py: only loopback authorization URLs")

    browser = requests.Session()
    browser.trust_env = False
    page = browser.get(arguments.url, allow_redirects=False, timeout=10)
    if page.status_code in (301, 302, 303):
        # Already signed in (the provider's session cookie), or an error sent back to the client.
        print(page.headers["Location"])
        return
    form = re.search(r'<form action="([^"]+)"', page.text)
    token = re.search(r'name="token" value="([^"]+)"', page.text)
    if page.status_code != 200 or not form or not token:
        sys.exit(f"login.py: no login form: {page.status_code} {page.text[:300]}")
    answer = browser.post(urljoin(arguments.url, html.unescape(form.group(1))), allow_redirects=False, timeout=10,
                          data={"token": html.unescape(token.group(1)), "username": arguments.user,
                                "password": arguments.password})
    if answer.status_code not in (301, 302, 303):
        sys.exit(f"login.py: sign-in refused: {answer.status_code} {answer.text[:300]}")
    print(answer.headers["Location"])


if __name__ == "__main__":
    main()
