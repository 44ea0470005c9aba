#!/usr/bin/env bash
# Builds the DocC archives for RegState, RegStateOngoingAccess, RegStateLoopback, RegStateWebAuthentication,
# RegStateURLSession and RegStateSimulator with the
# toolchain's own docc (no plugin): symbol graphs from `swift build` in its own scratch path (so the flags never invalidate the main .build), then `docc convert`
# with warnings as errors. Also fails when a public top-level symbol is missing from its catalog's Topics, or when a
# "Testing with the simulator" article's code is not the test suite's (DocumentedUsageTests, which compiles it).
# The archives are made for static hosting: .build/docs/site/ is a website (one folder a module and an
# index page) that any static file server hosts as it is (python3 -m http.server -d .build/docs/site). DocC's pages
# load their content with JavaScript, which browsers do not allow from file:// URLs, so the folder is served, not
# opened as files (docc's --experimental-transform-for-static-hosting-with-content, which would put the content in
# the HTML, crashes in libxml2 on Linux with this toolchain). With Chromium installed (Scripts/setup.sh), a headless
# screenshot of the front page, served on loopback, goes to $REGSTATE_ARTIFACTS/docs (default .build/artifacts/docs).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build/docs
graphs="$scratch/symbol-graphs"
# Symbol graphs are written only when a module compiles, so an incremental build would leave some out: start clean.
rm -rf "$scratch"; mkdir -p "$graphs"
# RegStateSimulator brings RegState and RegStateOngoingAccess; RegStateLoopback, RegStateWebAuthentication and
# RegStateURLSession are built on their own (on Linux RegStateWebAuthentication holds its platform-neutral types only).
for target in RegStateSimulator RegStateLoopback RegStateWebAuthentication RegStateURLSession; do
  swift build --scratch-path "$scratch" --target "$target" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public >/dev/null
done
docc_bin=$(command -v docc || xcrun --find docc)
status=0
for module in RegState RegStateOngoingAccess RegStateLoopback RegStateWebAuthentication RegStateURLSession RegStateSimulator; do
  dir="$scratch/graphs-$module"; rm -rf "$dir"; mkdir -p "$dir"
  cp "$graphs/$module.symbols.json" "$dir/"
  for extension in "$graphs/$module@"*.symbols.json; do [ -e "$extension" ] && cp "$extension" "$dir/"; done
  catalog="Sources/$module/$module.docc"
  python3 Scripts/check-docc-topics.py "$dir/$module.symbols.json" "$catalog" || status=1
  "$docc_bin" convert "$catalog" --additional-symbol-graph-dir "$dir" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.regstate.$module" \
    --transform-for-static-hosting --hosting-base-path "$module" \
    --output-path "$scratch/$module.doccarchive" --warnings-as-errors >"$scratch/$module.log" 2>&1 \
    || { cat "$scratch/$module.log" >&2; status=1; }
  grep -E "warning|error" "$scratch/$module.log" >&2 && status=1
  echo "docs: $module -> $scratch/$module.doccarchive"
done

# The article code the test suite compiles (a region of Tests/RegStateSimulatorTests/DocumentedUsageTests.swift).
python3 Scripts/check-doc-snippets.py || status=1

# The website: each archive at /<Module>/, an index page at /.
site="$scratch/site"
rm -rf "$site"; mkdir -p "$site"
for module in RegState RegStateOngoingAccess RegStateLoopback RegStateWebAuthentication RegStateURLSession RegStateSimulator; do cp -R "$scratch/$module.doccarchive" "$site/$module"; done
cat > "$site/index.html" <<'HTML'
<!doctype html>
<meta charset="utf-8">
<title>RegState documentation</title>
<style>body{font:17px/1.5 -apple-system,system-ui,sans-serif;max-width:42em;margin:3em auto;padding:0 1em}</style>
<h1>RegState documentation</h1>
<p>API reference and articles, built by DocC from the catalogs in the repository.</p>
<ul>
  <li><a href="RegState/documentation/regstate/index.html">RegState</a>: the engine, its events, storage and requests</li>
  <li><a href="RegStateOngoingAccess/documentation/regstateongoingaccess/index.html">RegStateOngoingAccess</a>:
    consent once, restore access without the user</li>
  <li><a href="RegStateLoopback/documentation/regstateloopback/index.html">RegStateLoopback</a>: catch a sign-in
    redirect on a loopback port, for desktop apps and command-line tools</li>
  <li><a href="RegStateWebAuthentication/documentation/regstatewebauthentication/index.html">RegStateWebAuthentication</a>:
    the sign-in in the system's authentication sheet, for iOS and macOS apps</li>
  <li><a href="RegStateURLSession/documentation/regstateurlsession/index.html">RegStateURLSession</a>: the request
    policy in the app's own URLSession</li>
  <li><a href="RegStateSimulator/documentation/regstatesimulator/index.html">RegStateSimulator</a>: the in-process
    provider and backend for tests</li>
</ul>
<p>Serve this folder with any static file server, for example
<code>python3 -m http.server -d .build/docs/site</code>, then open <code>http://localhost:8000/</code>.</p>
HTML
echo "docs: website -> $site/index.html"

# A screenshot of the front page, as a browser renders it from a static server (loopback, a free port).
chromium_bin=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$chromium_bin" ]; then
  artifacts="${REGSTATE_ARTIFACTS:-.build/artifacts}/docs"; mkdir -p "$artifacts"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site" >/dev/null 2>&1 &
  server=$!
  for _ in $(seq 1 50); do curl -sf -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
  shoot() {  # shoot URL FILE
    # --virtual-time-budget: capture once the page's JavaScript has had 10 s of virtual time to render DocC's content
    # (a blank page is ~5 KB; --timeout alone captured blank pages in a fresh clone).
    timeout 120 "$chromium_bin" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
      --hide-scrollbars --window-size=1280,900 --virtual-time-budget=10000 --screenshot="$PWD/$2" "$1" >/dev/null 2>&1 || true
    if [ "$(stat -c %s "$2" 2>/dev/null || echo 0)" -gt 20000 ]; then echo "docs: screenshot -> $2"
    else echo "docs: no rendered screenshot of $1" >&2; status=1; fi
  }
  shoot "http://127.0.0.1:$port/RegState/documentation/regstate/" "$artifacts/regstate-front-page.png"
  kill "$server" 2>/dev/null || true
else
  echo "docs: no chromium (Scripts/setup.sh installs it): no screenshot"
fi
exit $status
