#!/usr/bin/env bash
# Builds the DocC archives for RegState and RegStateSimulator with the toolchain's own docc (no plugin): symbol graphs
# from `swift build` in its own scratch path (so the flags never invalidate the main .build), then `docc convert`
# with warnings as errors. Also fails when a public top-level symbol is missing from its catalog's Topics.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build/docs
graphs="$scratch/symbol-graphs"
# Symbol graphs are written only when a module compiles, so an incremental build would leave some out: start clean.
rm -rf "$scratch"; mkdir -p "$graphs"
swift build --scratch-path "$scratch" --target RegStateSimulator \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" \
  -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public >/dev/null
docc_bin=$(command -v docc || xcrun --find docc)
status=0
for module in RegState RegStateSimulator; do
  dir="$scratch/graphs-$module"; rm -rf "$dir"; mkdir -p "$dir"
  cp "$graphs/$module.symbols.json" "$dir/"
  for extension in "$graphs/$module@"*.symbols.json; do [ -e "$extension" ] && cp "$extension" "$dir/"; done
  catalog="Sources/$module/$module.docc"
  python3 Scripts/check-docc-topics.py "$dir/$module.symbols.json" "$catalog" || status=1
  "$docc_bin" convert "$catalog" --additional-symbol-graph-dir "$dir" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.regstate.$module" \
    --output-path "$scratch/$module.doccarchive" --warnings-as-errors >"$scratch/$module.log" 2>&1 \
    || { cat "$scratch/$module.log" >&2; status=1; }
  grep -E "warning|error" "$scratch/$module.log" >&2 && status=1
  echo "docs: $module -> $scratch/$module.doccarchive"
done
exit $status
