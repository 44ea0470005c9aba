#!/usr/bin/env bash
# start.sh
# Runs the interop tests' real browser: driver.py (Selenium) with headless Chromium, speaking one JSON command per line
# on stdin and one answer per line on stdout (see driver.py). Not a server: it ends when stdin ends or on "quit".
# First use: installs chromium and chromium-driver through the repository's Scripts/setup.sh (apt; needs root) when
# missing, and makes a Python environment in the kits' cache with requirements.txt from PyPI (see ../kit.sh). Nothing
# is downloaded when it runs: Selenium is given Debian's browser and driver.
set -euo pipefail
kit_name=browser
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../kit.sh"
# On failure the driver's first answer says why, so a test reads the reason where it reads answers.
refuse() { printf '{"id": 0, "ok": false, "error": "%s"}\n' "$1"; exit 1; }
kit_need chromium chromedriver python3 || refuse "chromium, chromium-driver or python3 missing (sudo Scripts/setup.sh)"
python=$(kit_venv "$here/requirements.txt") || refuse "the Python environment could not be made (python3-venv, PyPI)"
kit_prepare_only "$@"
SE_OFFLINE=true exec "$python" "$here/driver.py"
