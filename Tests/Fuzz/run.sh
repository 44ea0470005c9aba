#!/usr/bin/env bash
# Builds the libFuzzer targets (Linux: -sanitize=fuzzer,address) and runs each for SECONDS, two at a time, at the
# lowest priority. New inputs go to .build/fuzz/corpus/<target>; crashes, hangs and leaks to .build/fuzz/findings/.
# Reproduce one: REGSTATE_FUZZ_TARGET=<target> .build/fuzz/debug/RegStateFuzz <file>
# LeakSanitizer is off (-detect_leaks=0, ASAN_OPTIONS=detect_leaks=0): it cannot see pointers Swift keeps in spare
# bits, so it reports the fixtures' global signing key at exit; unbounded growth is caught by -rss_limit_mb and
# -malloc_limit_mb instead.
# The checked-in corpus of each target is replayed first (every input once, -runs=0), then the fuzzing runs. The script
# exits 1 when any target left a finding (or its replay failed), so CI can run it as a smoke (.ci/run: 15 s a target).
# Usage: Tests/Fuzz/run.sh SECONDS [target...]
#   (targets: jwt jwks responses callback journal store dpop jws pendinglogin hosttoken discovery printed)
set -euo pipefail
seconds=${1:?usage: Tests/Fuzz/run.sh SECONDS [target...]}
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(jwt jwks responses callback journal store dpop jws pendinglogin hosttoken discovery printed)
scratch="$root/.build/fuzz"

nice -n 19 swift build --package-path "$root" --scratch-path "$scratch" --product RegStateFuzz \
    -Xswiftc -DFUZZING -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1 |
    { grep -v "Cannot export local symbol" || true; } # gold's noise about the sanitizer runtime's local symbols
binary="$scratch/debug/RegStateFuzz"
mkdir -p "$scratch/findings" "$scratch/logs"
stamp="$scratch/logs/.started"  # Findings of earlier runs stay in findings/ but do not fail this one.
touch "$stamp"

run() {
    local target=$1
    mkdir -p "$scratch/corpus/$target"
    # The checked-in corpus first, each input once: a regression case that crashes again fails here at once.
    if ! ASAN_OPTIONS=detect_leaks=0 REGSTATE_FUZZ_TARGET=$target nice -n 19 "$binary" -runs=0 -detect_leaks=0 \
        -artifact_prefix="$scratch/findings/$target-" "$root/Tests/Fuzz/Corpus/$target" >"$scratch/logs/$target.replay.log" 2>&1; then
        echo "$target: the checked-in corpus does not replay cleanly (see $scratch/logs/$target.replay.log)"
    fi
    ASAN_OPTIONS=detect_leaks=0 REGSTATE_FUZZ_TARGET=$target nice -n 19 "$binary" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 -max_len=8192 -detect_leaks=0 \
        -print_final_stats=1 -artifact_prefix="$scratch/findings/$target-" \
        "$scratch/corpus/$target" "$root/Tests/Fuzz/Corpus/$target" >"$scratch/logs/$target.log" 2>&1 || true
    local runs
    runs=$(grep -E '^stat::number_of_executed_units' "$scratch/logs/$target.log" | awk '{print $2}' | tail -1)
    echo "$target: ${seconds}s, ${runs:-?} executions, findings: $(find "$scratch/findings" -type f -name "$target-*" -newer "$stamp" | wc -l)"
}

# Two at a time at most: the machine is shared.
for ((i = 0; i < ${#targets[@]}; i += 2)); do
    run "${targets[i]}" &
    if ((i + 1 < ${#targets[@]})); then run "${targets[i + 1]}" & fi
    wait
done
found=$(find "$scratch/findings" -type f -newer "$stamp" | wc -l)
[ "$found" -eq 0 ] || { echo "fuzz: $found finding(s) in $scratch/findings"; exit 1; }
