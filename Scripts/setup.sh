#!/usr/bin/env bash
# Installs what the project needs on Debian/Ubuntu, only what is missing, upgrading nothing that is installed
# (--no-upgrade). Run as root or with sudo. The README's set-up line and .ci/run both call it.
set -euo pipefail
need=()
dpkg -s libssl-dev >/dev/null 2>&1 || need+=(libssl-dev)          # libcrypto for the CLibCrypto system library
command -v curl >/dev/null 2>&1 || need+=(curl)                    # the interop provider's start and login scripts
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need+=(python3-venv)   # both start.sh build a venv
# The second interop provider (Tests/Peers/glewlwyd, whose start.sh runs this script when they are missing) and the
# diagram renderer, without recommends.
lean=()
dpkg -s glewlwyd >/dev/null 2>&1 || lean+=(glewlwyd)
command -v sqlite3 >/dev/null 2>&1 || lean+=(sqlite3)
command -v dot >/dev/null 2>&1 || lean+=(graphviz)                 # Scripts/render-diagrams.sh
# chromium: headless Chromium from Debian (the browser tests; Scripts/build-docs.sh's screenshot of the DocC site),
# only when missing.
command -v chromium >/dev/null 2>&1 || lean+=(chromium)
# --- real browser: chromium-driver, Debian's WebDriver for that Chromium, which Selenium drives in the interop suite's
# real-browser tests (Tests/Peers/browser; Selenium itself comes from PyPI into the kits' cache), only when missing.
command -v chromedriver >/dev/null 2>&1 || lean+=(chromium-driver)
# --- end real browser
if [ ${#need[@]} -eq 0 ] && [ ${#lean[@]} -eq 0 ]; then echo "setup: nothing to install"; exit 0; fi
echo "setup: installing ${need[*]} ${lean[*]}"
apt-get update -qq
[ ${#need[@]} -eq 0 ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-upgrade "${need[@]}" >/dev/null
[ ${#lean[@]} -eq 0 ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-upgrade --no-install-recommends "${lean[@]}" >/dev/null
