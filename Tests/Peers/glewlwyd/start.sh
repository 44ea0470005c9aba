#!/usr/bin/env bash
# start.sh PORT [STATE_DIR] [--nonce]
# Runs Glewlwyd (Debian's package: an OpenID provider written in C, with DPoP and PAR) on 127.0.0.1:PORT with a fresh
# SQLite database in STATE_DIR, provisions it (provision.py) and prints the server's PID on stdout once discovery
# answers. Stop it with `kill PID`. --nonce: DPoP nonces are mandatory.
# First use: installs glewlwyd and sqlite3 through the repository's Scripts/setup.sh (apt; needs root) when missing,
# and makes a Python environment in the kits' cache with requirements.txt from PyPI (see ../kit.sh).
# Knobs: GLW_AT_TTL access-token lifetime (s, 3600), GLW_RT_TTL refresh-token lifetime (s, 14 days),
# GLW_SIGNING RS256 | ES256 (RS256), GLW_PAR off | allowed | required (allowed), GLW_PAR_TTL pushed request_uri
# lifetime (s, 90), GLW_LOGLEVEL (INFO; DEBUG names the reason of each refusal in STATE_DIR/glewlwyd.log),
# GLW_REDIRECT_URIS more redirect URIs (space-separated), GLW_END_SESSION off | on (the end-session endpoint).
set -euo pipefail
kit_name=glewlwyd
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../kit.sh"
kit_need glewlwyd sqlite3 python3 curl
python=$(kit_venv "$here/requirements.txt")
kit_prepare_only "$@"
port=${1:?usage: start.sh PORT [STATE_DIR] [--nonce] | start.sh --prepare}; shift
state=""; provision_flags=()
for argument in "$@"; do
  case "$argument" in
    --nonce) provision_flags+=(--nonce) ;;
    -*) kit_say "unknown option $argument (usage: start.sh PORT [STATE_DIR] [--nonce])"; exit 2 ;;
    *) state=$argument ;;
  esac
done
case "${GLW_PAR:-allowed}" in off|allowed|required) ;; *) kit_say "GLW_PAR is off, allowed or required"; exit 2 ;; esac
state=${state:-$(mktemp -d)}
mkdir -p "$state"

# A fresh database from the package's own schema, and the configuration for this port and directory.
schema=/usr/share/dbconfig-common/data/glewlwyd/install/sqlite3
rm -f "$state/glewlwyd.db"
sqlite3 "$state/glewlwyd.db" < "$schema"
# The webapp (login and consent pages), made once in the kits' cache: the package's files copied with their links
# resolved (Glewlwyd serves no symbolic link; 4.5 MB) and a config.json of its own (the package's is a dangling link).
webapp="$peers_cache/$kit_name/webapp"
if [ ! -f "$webapp/config.json" ]; then
  fresh="$webapp.$$"; rm -rf "$fresh"; mkdir -p "$fresh"
  for entry in /usr/share/glewlwyd/webapp/*; do
    [ "$(basename "$entry")" = config.json ] || cp -rL "$entry" "$fresh/"
  done
  "$python" -c 'import json, sys; c = json.load(open(sys.argv[1])); c["GlewlwydUrl"] = "./"; c["lang"] = ["en"]; json.dump(c, open(sys.argv[2], "w"))' \
    /etc/glewlwyd/config-2.7.json/config.json "$fresh/config.json"
  mv -T "$fresh" "$webapp" 2>/dev/null || rm -rf "$fresh"   # another start made it first
fi
sed -e "s|@PORT@|$port|g" -e "s|@STATE@|$state|g" -e "s|@WEBAPP@|$webapp|g" -e "s|@LOGLEVEL@|${GLW_LOGLEVEL:-INFO}|g" \
  "$here/glewlwyd.conf.in" > "$state/glewlwyd.conf"

setsid glewlwyd -c "$state/glewlwyd.conf" >"$state/stdout.log" 2>&1 </dev/null &
pid=$!
kit_wait "http://127.0.0.1:$port/api/auth/scheme/" "$pid" "$state/stdout.log" 10 any || exit 1
"$python" "$here/provision.py" "$port" "${provision_flags[@]}" > "$state/provision.json" || { kill "$pid"; exit 1; }
kit_wait "http://127.0.0.1:$port/api/oidc/.well-known/openid-configuration" "$pid" "$state/glewlwyd.log" 10 || exit 1
echo "$pid"
