#!/bin/sh
# Every RegState benchmark in one run, one line per figure, each with its floor measured in the same run.
#   Scripts/bench.sh [ROUNDS] [cli]   (release build in .build-release; ROUNDS of the CLI figures, default 9;
#                                      with `cli`, only the whole-process figures)
# Figures are min / median / max over rounds; compare ratios within one run, not absolute numbers across runs.
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${1:-9}
ONLY=${2:-all}
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
# The plainer floor: a release binary that only names URLSession (touches less of Foundation than a URLRequest).
cat >"$SCRATCH/plain.swift" <<'SWIFT'
import FoundationNetworking
print("hello", URLSession.self)
SWIFT
swiftc -O "$SCRATCH/plain.swift" -o "$SCRATCH/plain" 2>/dev/null

# Whole process, paired: the floor and the command in turn (F C F C ...), one warm-up pair not counted; wall time
# from the shell's nanosecond clock, peak RSS (KiB) from /usr/bin/time; ratios pair by pair, so a comparison holds
# when the machine's speed drifts.
pair() { # label, floor label, floor command, --, command...
    label=$1; floorLabel=$2; floor=$3; shift 4
    $floor >/dev/null 2>&1 || true; "$@" >/dev/null 2>&1 || true
    : >"$SCRATCH/pairs"
    i=0
    while [ "$i" -lt "$ROUNDS" ]; do
        t0=$(date +%s%N); /usr/bin/time -f "%M" -o "$SCRATCH/fm" $floor >/dev/null 2>&1 || true; t1=$(date +%s%N)
        /usr/bin/time -f "%M" -o "$SCRATCH/cm" "$@" >/dev/null 2>&1 || true; t2=$(date +%s%N)
        echo "$(( (t1 - t0) / 1000 )) $(cat "$SCRATCH/fm") $(( (t2 - t1) / 1000 )) $(cat "$SCRATCH/cm")" >>"$SCRATCH/pairs"
        i=$((i + 1))
    done
    stats() { sort -n | awk -v l="$1" -v u="$2" -v s="$3" '{v[NR]=$1*s} END {printf "%-78s  min %9.3f  median %9.3f  max %9.3f %s\n", l, v[1], v[int((NR+1)/2)], v[NR], u}'; }
    awk '{print $1}' "$SCRATCH/pairs" | stats "floor: $floorLabel, whole process" "ms (wall)" 0.001
    awk '{print $3}' "$SCRATCH/pairs" | stats "$label, whole process" "ms (wall)" 0.001
    awk '{print $3 / $1}' "$SCRATCH/pairs" | stats "ratio $label / $floorLabel, wall (per pair)" "×" 1
    awk '{print $2}' "$SCRATCH/pairs" | stats "floor: $floorLabel, whole process" "MiB (peak RSS)" 0.0009765625
    awk '{print $4}' "$SCRATCH/pairs" | stats "$label, whole process" "MiB (peak RSS)" 0.0009765625
    awk '{print $4 / $2}' "$SCRATCH/pairs" | stats "ratio $label / $floorLabel, peak RSS (per pair)" "×" 1
}

# `regstate status` on the embedded simulator: a registered device first (untimed), then status as a whole process.
STATE="$SCRATCH/cli"
printf '1\nalice@example.com\n1\n' | "$BIN/regstate" walkthrough --store "$STATE" >/dev/null 2>&1 || true
pair "regstate status (simulator, registered)" "hello-world linking FoundationNetworking" "$SCRATCH/hello" -- \
    "$BIN/regstate" status --store "$STATE"
pair "regstate status (simulator, registered)" "release binary naming only URLSession" "$SCRATCH/plain" -- \
    "$BIN/regstate" status --store "$STATE"
"$BIN/regstate" status --store "$STATE" | sed 's/^/  (status printed: /; s/$/)/'

[ "$ONLY" = cli ] || "$BIN/RegStateBenchmarks"
