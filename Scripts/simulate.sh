#!/bin/sh
# Runs random seeds of the deterministic simulation for SECONDS, one regstate-sim per core, and reports runs,
# failures, virtual hours and runs per second, and the figures a published campaign needs: the commit, each process's
# seed range, the processes and the command, and the lives and failures of every world (a Markdown table). Every
# failure prints its seed, its world and the command that replays it (naming the world, disk and processes).
# Without a --world argument every life draws its world, disk and processes from its seed across every world
# (regstate-sim --world mixed, SimulationMix); with --disk alone, across that disk's worlds (keychain: both Keychain
# disks, the item model and the shared session).
#   Scripts/simulate.sh 600                       # ten minutes on every core, every world
#   Scripts/simulate.sh 60 4                      # one minute on 4 processes
#   Scripts/simulate.sh 60 2 --disk keychain      # every world on the Keychain disks
#   Scripts/simulate.sh 60 2 --world budget       # extra arguments go to every regstate-sim
#   SIMULATE_BASE=4400000000 Scripts/simulate.sh 3600   # seeds from a chosen base (default: from the time of day)
#   Scripts/simulate.sh --runs 1000000 2          # a number of runs instead of a time: each process runs its share
# Process i runs seeds BASE + i * 10,000,000 upwards, so the ranges never overlap. Each process runs its seeds in
# slices of at most 20,000 runs or 300 s (SIMULATE_SLICE_RUNS, SIMULATE_SLICE_SECONDS), one regstate-sim after
# another: a regstate-sim keeps about 30 KB a run after the run ends (its peak RSS grows from 42 MB after 100 runs to
# 52 MB after 400, and by some 190 MB a minute in a campaign; the cause is not traced yet), so one regstate-sim for
# 500,000 runs would need some 15 GB. The seeds, and so the results, are those of one long process.
set -eu
runs=
if [ "${1:-}" = --runs ]; then runs=${2:?usage: Scripts/simulate.sh --runs RUNS [PROCESSES [ARGUMENTS...]]}; shift; fi
seconds=${1:?usage: Scripts/simulate.sh SECONDS|--runs RUNS [PROCESSES [REGSTATE-SIM ARGUMENTS...]]}
cores=${2:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
shift; [ $# -gt 0 ] && shift
case " $* " in *" --world "*) ;; *) set -- --world mixed "$@" ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
swift build -c release --product regstate-sim >/dev/null
binary=$(swift build -c release --show-bin-path)/regstate-sim
out=$(mktemp -d)
base=${SIMULATE_BASE:-$(( $(date +%s) % 100000 * 100000 ))}
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo '+changes')
began=$(date +%s)
i=0
slice=${SIMULATE_SLICE_RUNS:-20000}
slice_seconds=${SIMULATE_SLICE_SECONDS:-300}
share=$(( (${runs:-0} + cores - 1) / cores ))
while [ "$i" -lt "$cores" ]; do
    start=$(( base + i * 10000000 ))
    if [ -n "$runs" ]; then
        (   from=$start; last=$(( start + share - 1 ))
            while [ "$from" -le "$last" ]; do
                to=$(( from + slice - 1 )); [ "$to" -le "$last" ] || to=$last
                "$binary" --seeds "$from..$to" --quiet "$@" || true
                from=$(( to + 1 ))
            done ) >"$out/$i.log" 2>&1 &
    else
        (   from=$start; until=$(( began + seconds ))
            while [ "$(date +%s)" -lt "$until" ]; do
                box=$(( until - $(date +%s) )); [ "$box" -le "$slice_seconds" ] || box=$slice_seconds
                "$binary" --time-box "$box" --start "$from" --quiet "$@" >"$out/$i.slice" 2>&1 || true
                cat "$out/$i.slice"
                done_runs=$(awk '/^runs / { print $2 }' "$out/$i.slice")
                from=$(( from + ${done_runs:-0} ))
                [ "${done_runs:-0}" -gt 0 ] || break
            done ) >"$out/$i.log" 2>&1 &
    fi
    i=$(( i + 1 ))
done
wait || true
ended=$(date +%s)
cat "$out"/*.log | grep -v -e '^runs ' -e '^world ' || true
echo "commit: $commit"
if [ -n "$runs" ]; then
    echo "command: Scripts/simulate.sh --runs $runs $cores${*:+ $*} (SIMULATE_BASE=$base; each process: regstate-sim --seeds S..S+$(( share - 1 )) --quiet${*:+ $*}, in slices of $slice runs)"
else
    echo "command: Scripts/simulate.sh $seconds $cores${*:+ $*} (SIMULATE_BASE=$base; each process: regstate-sim --time-box $seconds --start S --quiet${*:+ $*}, in slices of $slice_seconds s)"
fi
i=0
while [ "$i" -lt "$cores" ]; do
    start=$(( base + i * 10000000 ))
    awk -v start="$start" '/^runs / { n += $2 } END { printf "seeds: %.0f..%.0f (%d runs)\n", start, start + n - 1, n }' "$out/$i.log"
    i=$(( i + 1 ))
done
# A process's wall time is the sum of its slices'; the campaign's, the longest process's.
awk -v elapsed=$(( ended - began )) '/^runs / { runs += $2; failures += $4; hours += $6; spent[FILENAME] += $8 + 0 }
     END { for (f in spent) if (spent[f] > wall) wall = spent[f]; printf "total: runs %d failures %d virtual-hours %.1f wall %.1fs (elapsed %d s) runs/s %.1f (%d processes, %.1f runs/s per process)\n",
                  runs, failures, hours, wall, elapsed, runs / (wall > 0 ? wall : 1), '"$cores"', runs / (wall > 0 ? wall : 1) / '"$cores"' }' "$out"/*.log
# Lives and failures per world (the world after its disk when that is not the file store), summed over every slice.
awk '/^world / { runs[$2] += $4; failures[$2] += $6; total += $4; failed += $6 }
     function commas(n,   s) { s = sprintf("%d", n); while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s); return s }
     END { print "per world:"; print "| world | lives | failures |"; print "|---|---:|---:|"
           n = 0; for (w in runs) names[++n] = w
           for (i = 2; i <= n; i++) { v = names[i]; j = i - 1; while (j > 0 && names[j] > v) { names[j + 1] = names[j]; j-- } names[j + 1] = v }
           for (i = 1; i <= n; i++) printf "| %s | %s | %d |\n", names[i], commas(runs[names[i]]), failures[names[i]]
           printf "| **all** | **%s** | **%d** |\n", commas(total), failed }' "$out"/*.log
failed=$(awk '/^runs / { f += $4 } END { print f + 0 }' "$out"/*.log)
ran=$(awk '/^runs / { n += $2 } END { print n + 0 }' "$out"/*.log)
rm -rf "$out"
# A slice whose regstate-sim died (a crash, a kill) reports no runs: its seeds were not run, and the seed ranges above
# would read as whole. Say so and fail, rather than publish a campaign with a hole in it.
if [ -n "$runs" ] && [ "$ran" -ne $(( share * cores )) ]; then
    echo "incomplete: $ran of $(( share * cores )) runs reported; a regstate-sim slice died (its output is above)" >&2
    exit 1
fi
[ "$failed" -eq 0 ]
