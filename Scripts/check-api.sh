#!/usr/bin/env bash
# The API check: compares the public API of the RegState library with the last release's (RELEASES.md, the
# `last-release:` line) using Swift's own `swift package diagnose-api-breaking-changes`, which works on Linux with
# this toolchain (Swift 6.3.1, swift-api-digester). It fails when a break is not accounted for in CHANGELOG.md's
# Unreleased section: a bullet that names the symbol (`Type.member`, the member, or the type for a type-level break)
# and carries a `*Migration:*` note. Breaks made before this check existed, which the CHANGELOG describes in words
# this matcher cannot tie to a symbol, are listed in .api-baseline/<version>/recorded-breaks.txt (the tool's own
# allowlist format); nothing may be added to that list by hand to silence a new break.
#
# The release's API is the digest the tool made from the release commit, kept gzipped in
# .api-baseline/<version>/RegState.json.gz, so CI does not build the release (about 3 minutes here); only the
# checkout is built, incrementally in API_SCRATCH (CI: the strict suite's .build/strict, same flags).
#   Scripts/check-api.sh                 the check
#   Scripts/check-api.sh --regenerate    remakes the digest from the release commit (builds it; minutes)
# Extra build flags for the checkout: API_BUILD_FLAGS (CI: -Xswiftc -warnings-as-errors, as its strict build).
set -euo pipefail
cd "$(dirname "$0")/.."
read -r version commit < <(sed -n 's/^last-release: //p' RELEASES.md)
[ -n "${commit:-}" ] || { echo "api: RELEASES.md has no 'last-release: VERSION COMMIT' line" >&2; exit 2; }
kept=.api-baseline/$version
scratch=${API_SCRATCH:-.build/api}
baseline=$PWD/.build/api-baseline
read -r -a flags <<< "${API_BUILD_FLAGS:-}"
mkdir -p "$baseline/$commit" "$kept"
touch "$kept/recorded-breaks.txt"

if [ "${1:-}" = --regenerate ]; then
  swift package "${flags[@]}" --scratch-path "$scratch" diagnose-api-breaking-changes "$commit" --products RegState \
    --baseline-dir "$baseline" --regenerate-baseline >/dev/null 2>&1 || true
  gzip -9 -n -c "$baseline/$commit/RegState.json" > "$kept/RegState.json.gz"
  echo "api: $kept/RegState.json.gz remade from $commit ($version)"
  exit 0
fi

gzip -d -c "$kept/RegState.json.gz" > "$baseline/$commit/RegState.json"
report=$(swift package "${flags[@]}" --scratch-path "$scratch" diagnose-api-breaking-changes "$commit" \
  --products RegState --baseline-dir "$baseline" --breakage-allowlist-path "$kept/recorded-breaks.txt" 2>&1) && true
if ! grep -qE "API breakage|No breaking changes detected" <<< "$report"; then
  echo "$report" | tail -n 40 >&2
  echo "api: the API comparison did not run (above)" >&2
  exit 1
fi
grep "API breakage:" <<< "$report" | sed 's/^.*API breakage: //' | python3 Scripts/check-api-changelog.py "$version" \
  "$(grep -c . "$kept/recorded-breaks.txt" || true)"
