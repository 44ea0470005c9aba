#!/usr/bin/env bash
# Runs the suite (interop aside: the real providers are separate processes the sanitizers do not watch) under the
# thread sanitizer and the address sanitizer, each in its own scratch path. Any report fails the run.
# Usage: Scripts/sanitize.sh [thread|address]...   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizers=("$@")
[ ${#sanitizers[@]} -eq 0 ] && sanitizers=(thread address)
for sanitizer in "${sanitizers[@]}"; do
    log=".build/sanitize-$sanitizer.log"
    mkdir -p .build
    echo "== swift test --sanitize=$sanitizer"
    # Leak detection off: Foundation's and libcurl's own process-lifetime allocations are reported as leaks.
    # halt_on_error makes the first report fail the test process instead of scrolling past.
    TSAN_OPTIONS="halt_on_error=1" ASAN_OPTIONS="detect_leaks=0:halt_on_error=1" \
        swift test --sanitize="$sanitizer" --skip Interop --scratch-path ".build/$sanitizer" 2>&1 | tee "$log" | tail -3
    status=${PIPESTATUS[0]}
    if [ "$status" -ne 0 ] || grep -qE "WARNING: ThreadSanitizer|ERROR: AddressSanitizer" "$log"; then
        echo "sanitize: $sanitizer found problems (see $log)" >&2
        exit 1
    fi
done
