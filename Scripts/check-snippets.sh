#!/usr/bin/env bash
# Compiles every ```swift block of README.md and of the DocC articles as a user would paste it (see
# Scripts/check-doc-snippets.py for how a block says what it is): one scratch package depending on this checkout by
# path (Linux), and one depending on Tests/AppleTypeCheck for the Apple-only blocks (the Apple stubs), each built
# once with warnings as errors. The packages live in .build/snippets (SNIPPETS_DIR), so a second run is incremental.
# The Apple package also builds Tests/AppleTypeCheck itself, so CI's Apple type-check step is this one build.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${SNIPPETS_DIR:-$PWD/.build/snippets}
python3 Scripts/check-doc-snippets.py --package "$dir"
status=0
for platform in linux apple; do
  package="$dir/$platform"
  if ! grep -q "Target(name:\|target(name:" "$package/Package.swift"; then
    # Nothing of this kind: the Apple type-check is still built (it is what the stubs are for).
    [ "$platform" = apple ] && { swift build --package-path Tests/AppleTypeCheck -Xswiftc -warnings-as-errors || status=1; }
    continue
  fi
  echo "snippets: building $package"
  swift build --package-path "$package" --build-tests -Xswiftc -warnings-as-errors || status=1
done
[ $status = 0 ] && echo "snippets: every swift block compiles" || echo "snippets: a swift block does not compile (above)" >&2
exit $status
