# Sourced by every kit's start.sh: where kits keep what they install, and the steps all of them take.
# Nothing here starts a server; each kit says what it runs.
#
# The cache: $REGSTATE_PEERS_CACHE, else $XDG_CACHE_HOME/regstate-peers, else ~/.cache/regstate-peers.
# Each kit has its own directory there (<cache>/<kit>/venv). Delete the cache for a first run from scratch.
# The Swift harness computes the same path (Tests/RegStateInteropTests/Harness/PeerKit.swift).

peers_root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
peers_cache=${REGSTATE_PEERS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/regstate-peers}

# kit_say MESSAGE: progress for the person (or test log) watching, on stderr; stdout is the PID only.
kit_say() { echo "${kit_name:-peer}: $*" >&2; }

# kit_venv REQUIREMENTS_FILE: makes (once) <cache>/<kit>/venv with exactly these pinned packages and prints its
# python. When the requirements file changes, the environment is rebuilt.
kit_venv() {
  local requirements=$1 venv="$peers_cache/$kit_name/venv"
  local stamp; stamp=$(sha256sum "$requirements" | cut -d' ' -f1)
  if [ ! -x "$venv/bin/python" ] || [ "$(cat "$venv/.requirements" 2>/dev/null)" != "$stamp" ]; then
    local began=$SECONDS
    kit_say "first use: installing $(grep -c '==' "$requirements") pinned Python packages from PyPI into $venv (about a minute)"
    python3 -m venv --clear "$venv" >&2 || { kit_say "python3 -m venv failed: install python3-venv (Scripts/setup.sh)"; return 1; }
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" >&2 || { kit_say "pip install failed"; return 1; }
    echo "$stamp" > "$venv/.requirements"
    kit_say "installed in $((SECONDS - began)) s; later starts reuse it"
  fi
  echo "$venv/bin/python"
}

# kit_prepare_only ARGUMENTS...: with `--prepare` as the first argument (`start.sh --prepare`), exits once the kit's
# first-use steps above it are done, starting nothing: the test harness prepares each kit so before its tests run,
# with these messages on the test output.
kit_prepare_only() {
  if [ "${1:-}" = --prepare ]; then exit 0; fi
}

# kit_need COMMAND...: when a command is missing, runs the repository's Scripts/setup.sh (apt, only what is missing;
# needs root) once, or says what to run.
kit_need() {
  local missing=()
  for command in "$@"; do command -v "$command" >/dev/null 2>&1 || missing+=("$command"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  local setup="$peers_root/../../Scripts/setup.sh"
  if [ "$(id -u)" = 0 ]; then
    local began=$SECONDS
    kit_say "first use: ${missing[*]} missing, running Scripts/setup.sh (apt-get, only what is missing)"
    "$setup" >&2 || { kit_say "Scripts/setup.sh failed"; return 1; }
    kit_say "Scripts/setup.sh done in $((SECONDS - began)) s"
  else
    kit_say "${missing[*]} missing: run 'sudo Scripts/setup.sh' from the repository root, then try again"
    return 1
  fi
}

# kit_wait URL PID LOG [SECONDS] [any]: waits until URL answers 2xx (with "any": answers at all), or fails early
# (showing LOG) when PID has died.
kit_wait() {
  local url=$1 pid=$2 log=$3 limit=${4:-30} accept=${5:-2xx} tries=0 status
  while [ $tries -lt $((limit * 10)) ]; do
    status=$(curl -s --noproxy '*' -o /dev/null -w '%{http_code}' "$url" || true)
    case "$accept:$status" in 2xx:2??|any:[1-5]??) return 0 ;; esac
    if ! kill -0 "$pid" 2>/dev/null; then kit_say "the server exited; its log:"; tail -n 40 "$log" >&2; return 1; fi
    sleep 0.1; tries=$((tries + 1))
  done
  kit_say "no answer from $url in $limit s; log: $log"
  kill "$pid" 2>/dev/null
  return 1
}
