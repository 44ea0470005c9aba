#!/usr/bin/env bash
# Runs Scripts/check-readme.py from the package root (see there).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 Scripts/check-readme.py
