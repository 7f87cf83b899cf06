#!/usr/bin/env bash
# The Python package's tests, as scripts/test.sh runs them after cargo test:
# a virtual environment under target/ (ignored, never the system Python)
# with maturin, pytest, PySAT and mypy from PyPI; the package built from
# python/ in the dev profile, as scripts/test.sh builds the Rust tests, so
# that it reuses what they compiled (the library, varisat, CaDiCaL's C++);
# then pytest over python/tests, and mypy --strict over the Python
# examples of README.md and docs/python.md against the installed stubs
# (scripts/typecheck-python-examples.py).
# Without a network or a Python, it is skipped with a note, except under
# CI=true, where that fails.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/python-venv
skip() {
  if [ "${CI:-}" = true ]; then
    echo "test-python: $1" >&2
    exit 1
  fi
  echo "test-python: $1; the Python tests are skipped" >&2
  exit 0
}
command -v python3 >/dev/null || skip "no python3"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" || skip "python3 -m venv failed"
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check \
  "maturin>=1.9.4,<2" "pytest>=8" "python-sat>=1.8.dev0" "mypy>=1.10" ||
  skip "maturin, pytest, python-sat and mypy could not be installed from PyPI"
# maturin as the build backend, from the environment (no isolated build,
# which would fetch it again); the dev profile instead of release.
PATH="$PWD/$venv/bin:$PATH" MATURIN_PEP517_ARGS="--profile dev" \
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
  --no-build-isolation --no-deps --force-reinstall ./python
"$venv/bin/python" -m pytest -q python/tests
"$venv/bin/python" scripts/typecheck-python-examples.py
