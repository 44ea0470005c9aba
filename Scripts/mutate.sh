#!/usr/bin/env bash
# Runs the mutation table: every mutation in Scripts/mutations.txt breaks one guard of the engine, and the
# deterministic simulation must catch it. For each one, in a scratch copy of this tree (never the tree itself): restore
# Sources/, apply the patch (git apply --recount -C1: small context, so patches survive the engine moving around
# them), build regstate-sim incrementally (the scratch copy keeps its .build, so a mutation recompiles the file it
# touches and relinks), then run seeds 1, 2, ... in growing batches until the first failure or BOUND runs. Prints one
# row per mutation: caught or not, the first failing seed, the invariant that failed, the runs made, the seconds.
# A patch that no longer applies, or no longer builds, is reported as such (the row says DOES-NOT-APPLY/NO-BUILD):
# rewrite it against the code as it is now. A mutation whose invariant is "(none yet: ...)" is listed as UNSEEN with
# the reason, without building or running it (--all runs those too).
#
#   Scripts/mutate.sh                       # every mutation, bound 10000 runs each
#   Scripts/mutate.sh --bound 2000 NAME...  # some mutations, a smaller bound
#   Scripts/mutate.sh --baseline            # the unmutated tree first: must pass the bound (else the table means nothing)
#   Scripts/mutate.sh --list                # the mutations and the invariants expected to catch them
# Environment: MUTATE_SCRATCH (default /tmp/regstate-mutate) keeps the copy and its .build between runs;
# MUTATE_CONFIG debug (default: the cheapest rebuild, about 5 runs/s) or release (a whole-module rebuild per
# mutation, about 4x the runs/s: for long bounds).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
table="$root/Scripts/mutations.txt"
scratch=${MUTATE_SCRATCH:-/tmp/regstate-mutate}
bound=10000
baseline=false
list=false
everything=false
config=${MUTATE_CONFIG:-debug}
names=()
while [ $# -gt 0 ]; do
    case $1 in
        --bound) bound=$2; shift 2 ;;
        --baseline) baseline=true; shift ;;
        --list) list=true; shift ;;
        --all) everything=true; shift ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) names+=("$1"); shift ;;
    esac
done

# Split the table into one directory per mutation: meta (guard, invariant, args) and patch.
parts="$scratch/mutations"
rm -rf "$parts"
mkdir -p "$parts"
awk -v dir="$parts" '
    /^=== / { name = $2; indiff = 0; system("mkdir -p \"" dir "/" name "\""); next }
    !name || /^$/ { next }
    !indiff && /^(guard|invariant|args): / { print > (dir "/" name "/meta"); next }
    /^(diff --git |--- )/ { indiff = 1 }
    indiff { print > (dir "/" name "/patch") }
' "$table"
all=()
while IFS= read -r line; do all+=("${line#=== }"); done < <(grep '^=== ' "$table")
[ ${#names[@]} -gt 0 ] || names=("${all[@]}")

field() { sed -n "s/^$2: //p" "$parts/$1/meta" 2>/dev/null | head -1; }

if $list; then
    for name in "${names[@]}"; do printf '%-28s %s\n    guard: %s\n' "$name" "$(field "$name" invariant)" "$(field "$name" guard)"; done
    exit 0
fi

# The scratch tree: this tree's files (tracked and new, not ignored), Sources/ restored before each mutation.
tree="$scratch/tree"
mkdir -p "$tree"
sync_tree() {
    # Everything but .build goes first, so files this tree no longer has do not linger in the copy.
    find "$tree" -mindepth 1 -maxdepth 1 ! -name .build -exec rm -rf {} +
    (cd "$root" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -xf - -C "$tree"
}
# Sources/ as in this tree again: copied over with their times (cp -a), so the build redoes only what a patch touched.
restore_sources() { cp -a "$root/Sources/." "$tree/Sources/"; }

build() {
    (cd "$tree" && nice -n 10 swift build -c "$config" --product regstate-sim >"$scratch/build.log" 2>&1)
}

# Runs seeds 1.. in growing batches until the first failure or the bound; prints "caught SEED INVARIANT RUNS" or
# "missed - - RUNS".
hunt() {
    local args=$1 binary="$tree/.build/$config/regstate-sim" start=1 size=25 out
    while [ "$start" -le "$bound" ]; do
        local end=$(( start + size - 1 ))
        [ "$end" -le "$bound" ] || end=$bound
        # shellcheck disable=SC2086 # args is a list of options
        out=$("$binary" --seeds "$start..$end" --quiet $args 2>&1 || true)
        local failed
        failed=$(printf '%s\n' "$out" | awk '/^seed [0-9]+ FAILED/ { print $2; exit }')
        if [ -n "$failed" ]; then
            local invariant
            invariant=$(printf '%s\n' "$out" | awk -v seed="$failed" '
                $0 ~ "^seed " seed " FAILED" { getline; sub(/^ +/, ""); sub(/:.*/, ""); print; exit }')
            echo "caught $failed ${invariant:-?} $end"
            return
        fi
        start=$(( end + 1 ))
        size=$(( size * 4 ))
    done
    echo "missed - - $bound"
}

rows=()
row() { rows+=("$(printf '%-28s %-14s %-11s %-20s %-6s %-5s %s' "$@")"); }
echo "mutate: scratch $tree, $config build, bound $bound runs, $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet || echo '+changes')"
sync_tree
if $baseline; then
    build || { echo "the unmutated tree does not build: see $scratch/build.log"; exit 1; }
    began=$SECONDS
    read -r verdict seed invariant runs < <(hunt "")
    row "(unmutated)" "$([ "$verdict" = missed ] && echo passes || echo FAILS)" "$seed" "$invariant" "$runs" "$((SECONDS - began))" "-"
    echo "${rows[-1]}"
fi
missed=0
unseen=0
for name in "${names[@]}"; do
    began=$SECONDS
    if [ ! -f "$parts/$name/patch" ]; then
        row "$name" "UNKNOWN" "-" "-" "-" "-" "no such mutation in $table"; echo "${rows[-1]}"; missed=$((missed + 1)); continue
    fi
    expected=$(field "$name" invariant)
    if ! $everything && [ "${expected#(none yet}" != "$expected" ]; then
        row "$name" "UNSEEN" "-" "-" "-" "-" "$expected"; echo "${rows[-1]}"; unseen=$((unseen + 1)); continue
    fi
    restore_sources
    if ! (cd "$tree" && git apply --recount -C1 "$parts/$name/patch" 2>"$scratch/apply.log"); then
        row "$name" "DOES-NOT-APPLY" "-" "-" "-" "-" "$(head -1 "$scratch/apply.log")"; echo "${rows[-1]}"
        missed=$((missed + 1)); continue
    fi
    if ! build; then
        row "$name" "NO-BUILD" "-" "-" "-" "-" "see $scratch/build.log"; echo "${rows[-1]}"
        missed=$((missed + 1)); continue
    fi
    read -r verdict seed invariant runs < <(hunt "$(field "$name" args)")
    [ "$verdict" = caught ] || missed=$((missed + 1))
    row "$name" "$verdict" "$seed" "$invariant" "$runs" "$((SECONDS - began))" "expected: $expected"
    echo "${rows[-1]}"
done
restore_sources

echo
printf '%-28s %-14s %-11s %-20s %-6s %-5s %s\n' mutation verdict first-seed invariant runs secs note
printf '%s\n' "${rows[@]}"
echo "missed or broken: $missed; unseen by the simulation (listed with the reason): $unseen"
[ "$missed" -eq 0 ]
