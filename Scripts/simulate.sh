#!/bin/sh
# Runs random seeds of the deterministic simulation for SECONDS, one regstate-sim per core, and reports
# runs, failures, virtual hours and runs per second. Every failure prints its seed and the command that replays it.
#   Scripts/simulate.sh 600            # ten minutes on every core
#   Scripts/simulate.sh 60 4           # one minute on 4 processes
set -eu
seconds=${1:?usage: Scripts/simulate.sh SECONDS [PROCESSES]}
cores=${2:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
swift build -c release --product regstate-sim >/dev/null
binary=$(swift build -c release --show-bin-path)/regstate-sim
out=$(mktemp -d)
base=$(( $(date +%s) % 100000 * 100000 ))
i=0
while [ "$i" -lt "$cores" ]; do
    "$binary" --time-box "$seconds" --start $(( base + i * 10000000 )) --quiet >"$out/$i.log" 2>&1 &
    i=$(( i + 1 ))
done
wait || true
cat "$out"/*.log | grep -v '^runs ' || true
awk '/^runs / { runs += $2; failures += $4; hours += $6; if ($8 + 0 > wall) wall = $8 + 0 }
     END { printf "total: runs %d failures %d virtual-hours %.1f wall %.1fs runs/s %.1f (%d processes)\n",
                  runs, failures, hours, wall, runs / (wall > 0 ? wall : 1), '"$cores"' }' "$out"/*.log
failed=$(awk '/^runs / { f += $4 } END { print f + 0 }' "$out"/*.log)
rm -rf "$out"
[ "$failed" -eq 0 ]
