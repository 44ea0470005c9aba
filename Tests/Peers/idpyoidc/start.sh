#!/usr/bin/env bash
# start.sh PORT [STATE_DIR]
# Runs idpyoidc (IdentityPython's OpenID provider library, from PyPI) as a headless Flask OP on 127.0.0.1:PORT for the
# interop tests, and prints the server's PID on stdout once its discovery document answers. Stop it with `kill PID`;
# STATE_DIR (signing keys, sessions, the refresh-token ledger, server.log) survives, so starting again with the same
# STATE_DIR keeps every token and key.
# First use: makes a Python environment in the kits' cache and installs requirements.txt from PyPI (see ../kit.sh).
# Knobs: IDPY_AT_TTL access-token lifetime (s, 3600), IDPY_RT_TTL refresh-token lifetime (s, 86400), IDPY_SIGNING
# RS256 | ES256 for swift-test-client's ID tokens (RS256; swift-test-es256 always gets ES256), IDPY_DPOP on | off (off;
# on: proofs required at the token and userinfo endpoints), IDPY_PAR on | off (off; on: the PAR endpoint is offered),
# IDPY_PAR_TTL the expires_in of a pushed request_uri (s, 90), IDPY_THREADED on | off (off: one connection at a time;
# on: a thread per connection, requests still one at a time, for a real browser whose idle connections would hold it).
set -euo pipefail
kit_name=idpyoidc
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../kit.sh"
kit_need python3 curl
python=$(kit_venv "$here/requirements.txt")
kit_prepare_only "$@"
port=${1:?usage: start.sh PORT [STATE_DIR] | start.sh --prepare}
state=${2:-$(mktemp -d)}
mkdir -p "$state"
cd "$here/provider"
setsid "$python" op.py "$port" "$state" >>"$state/server.log" 2>&1 </dev/null &
pid=$!
kit_wait "http://127.0.0.1:$port/.well-known/openid-configuration" "$pid" "$state/server.log" 30
echo "$pid"
