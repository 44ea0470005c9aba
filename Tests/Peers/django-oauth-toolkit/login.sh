#!/usr/bin/env bash
# login.sh AUTHORIZATION_URL [USERNAME] [PASSWORD]     (default user: alice / alice-password)
# Does what the user does in a browser: opens the provider's login page, signs in with the form (CSRF token
# included), and prints where the provider then sends the browser: the redirect URI with ?code=...&state=...
# curl with a cookie jar; it reports a custom-scheme Location the way curl resolves it (com.example.app://callback/?...).
set -euo pipefail
authorize=${1:?usage: login.sh AUTHORIZATION_URL [USERNAME] [PASSWORD]}
user=${2:-alice}; password=${3:-alice-password}
origin=$(printf '%s' "$authorize" | sed -E 's#^(https?://[^/]+).*#\1#')
jar=$(mktemp); trap 'rm -f "$jar"' EXIT
# 1. The authorization request without a session goes to the login page, which sets the CSRF cookie.
login_page=$(curl -s --noproxy '*' -c "$jar" -b "$jar" -o /dev/null -w '%{redirect_url}' "$authorize")
[ -n "$login_page" ] || { echo "login.sh: the provider did not send the browser to a login page" >&2; exit 1; }
curl -s --noproxy '*' -c "$jar" -b "$jar" -o /dev/null "$login_page"
csrf=$(awk '$6 == "csrftoken" { print $7 }' "$jar")
next=$(python3 -c 'import sys, urllib.parse as p; print(p.parse_qs(p.urlsplit(sys.argv[1]).query)["next"][0])' "$login_page")
# 2. Sign in; Django sends the browser back to the authorization request.
back=$(curl -s --noproxy '*' -c "$jar" -b "$jar" -o /dev/null -w '%{redirect_url}' -e "$login_page" \
  --data-urlencode "csrfmiddlewaretoken=$csrf" --data-urlencode "username=$user" \
  --data-urlencode "password=$password" --data-urlencode "next=$next" "$origin/accounts/login/")
[ -n "$back" ] || { echo "login.sh: the provider refused $user's sign-in" >&2; exit 1; }
# 3. Signed in, the authorization request redirects to the client with the code.
curl -s --noproxy '*' -b "$jar" -o /dev/null -w '%{redirect_url}\n' "$back"
