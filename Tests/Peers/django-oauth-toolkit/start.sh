#!/usr/bin/env bash
# start.sh PORT [STATE_DIR]
# Runs django-oauth-toolkit as an OpenID provider on 127.0.0.1:PORT for the interop tests, and prints the server's PID
# on stdout once its discovery document answers. Stop it with `kill PID`; STATE_DIR (database, signing key,
# server.log) survives, so starting again with the same STATE_DIR keeps every token and key.
# First use: makes a Python environment in the kits' cache and installs requirements.txt from PyPI (see ../kit.sh).
# Knobs (seconds): OIDC_AT_TTL access token (3600), OIDC_IDT_TTL ID token (3600), OIDC_RT_TTL refresh token after its
# access token expired (unset: never), OIDC_RT_GRACE reuse grace of a rotated refresh token (0), OIDC_DEVICE_INTERVAL
# the device grant's polling interval (5), OIDC_DEVICE_TTL the seconds a device code lives (1800).
set -euo pipefail
kit_name=django-oauth-toolkit
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../kit.sh"
kit_need python3 curl
python=$(kit_venv "$here/requirements.txt")
kit_prepare_only "$@"
port=${1:?usage: start.sh PORT [STATE_DIR] | start.sh --prepare}
state=${2:-$(mktemp -d)}
mkdir -p "$state"
OIDC_PORT=$port OIDC_STATE_DIR=$state nohup "$python" "$here/provider/peer.py" serve "$port" >"$state/server.log" 2>&1 </dev/null &
pid=$!
kit_wait "http://127.0.0.1:$port/o/.well-known/openid-configuration" "$pid" "$state/server.log" 30
echo "$pid"
