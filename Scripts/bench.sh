#!/bin/sh
# Every RegState benchmark in one run, one line per figure, each with its floor measured in the same run.
#   Scripts/bench.sh [ROUNDS]      (release build in .build-release; ROUNDS of the CLI figures, default 9)
# Figures are min / median / max over rounds; compare ratios within one run, not absolute numbers across runs.
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${1:-9}
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT

echo "machine: nproc $(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -sr)"
swift build -c release --scratch-path .build-release --product regstate >/dev/null
swift build -c release --scratch-path .build-release --product RegStateBenchmarks >/dev/null
BIN=.build-release/release

# The floor for the CLI: a Swift hello-world that links FoundationNetworking, built the same way (-O).
cat >"$SCRATCH/hello.swift" <<'SWIFT'
import Foundation
import FoundationNetworking
let request = URLRequest(url: URL(fileURLWithPath: "/"))
print("hello", request.httpMethod ?? "")
SWIFT
swiftc -O "$SCRATCH/hello.swift" -o "$SCRATCH/hello" 2>/dev/null

# Whole process: wall seconds and peak RSS (KiB) per run, via /usr/bin/time; one warm-up run not counted.
whole() { # label, command...
    label=$1; shift
    "$@" >/dev/null 2>&1 || true
    : >"$SCRATCH/times"
    i=0
    while [ "$i" -lt "$ROUNDS" ]; do
        /usr/bin/time -f "%e %M" -a -o "$SCRATCH/times" "$@" >/dev/null 2>&1 || true
        i=$((i + 1))
    done
    sort -n -k1 "$SCRATCH/times" | awk -v l="$label" '{w[NR]=$1} END {printf "%-78s  min %9.3f  median %9.3f  max %9.3f s (wall)\n", l, w[1], w[int((NR+1)/2)], w[NR]}'
    sort -n -k2 "$SCRATCH/times" | awk -v l="$label" '{m[NR]=$2} END {printf "%-78s  min %9.1f  median %9.1f  max %9.1f MiB (peak RSS)\n", l, m[1]/1024, m[int((NR+1)/2)]/1024, m[NR]/1024}'
}

# `regstate status` on the embedded simulator: a registered device first (untimed), then status as a whole process.
STATE="$SCRATCH/cli"
printf '1\nalice@example.com\n1\n' | "$BIN/regstate" walkthrough --store "$STATE" >/dev/null 2>&1 || true
whole "floor: hello-world linking FoundationNetworking, whole process" "$SCRATCH/hello"
whole "regstate status (simulator, registered, journal as left), whole process" "$BIN/regstate" status --store "$STATE"
"$BIN/regstate" status --store "$STATE" | sed 's/^/  (status printed: /; s/$/)/'

"$BIN/RegStateBenchmarks"
