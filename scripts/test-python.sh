#!/usr/bin/env bash
# The Python package's tests, as scripts/test.sh runs them after cargo test:
# a virtual environment under target/ (ignored, never the system Python)
# with maturin, pytest, PySAT and mypy from PyPI; the package built from
# python/ as a wheel in the dev profile, as scripts/test.sh builds the Rust
# tests, so that it reuses what they compiled (the library, varisat,
# CaDiCaL's C++), installed from the file into a fresh venv where the
# README's example runs, and into the tests' venv; then pytest over
# python/tests, and mypy --strict over the Python
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
fresh=target/python-fresh-venv
ready=target/python-venvs-ready
# The two environments, made first: the tests' (maturin, pytest, PySAT,
# mypy), and a fresh one with nothing but PySAT, where the wheel is
# installed from its file. `--prepare` makes them and stops, so that
# scripts/test.sh can make them while the Rust code compiles (pip is
# mostly waiting on the network and the disk), and `--prepared` then
# runs the rest without making them again.
prepare() {
  rm -f "$ready"
  command -v python3 >/dev/null || skip "no python3"
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" || skip "python3 -m venv failed"
  fi
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    "maturin>=1.9.4,<2" "pytest>=8" "python-sat>=1.8.dev0" "mypy>=1.10" ||
    skip "maturin, pytest, python-sat and mypy could not be installed from PyPI"
  rm -rf "$fresh"
  python3 -m venv "$fresh"
  "$fresh/bin/python" -m pip install -q --disable-pip-version-check "python-sat>=1.8.dev0" ||
    skip "python-sat could not be installed from PyPI"
  touch "$ready"
}
case "${1:-}" in
  --prepare)
    prepare
    exit 0
    ;;
  --prepared)
    # A `--prepare` that skipped (no network, no Python) left no mark.
    [ -e "$ready" ] || skip "the Python environments were not made"
    ;;
  *) prepare ;;
esac
# The package built once, as the abi3 wheel a user installs (the dev
# profile instead of release, to reuse the tests' compilation), and
# installed from that file: first into a fresh virtual environment with
# nothing but PySAT, where the README's Python example runs, then into the
# tests' environment.
wheels=target/python-wheels
rm -rf "$wheels"
"$venv/bin/maturin" build --quiet --profile dev --manifest-path python/Cargo.toml \
  --out "$wheels" >&2
wheels_built=("$wheels"/knightsat-*.whl)
wheel=${wheels_built[0]}
started=$(date +%s%N)
"$fresh/bin/python" -m pip install -q --disable-pip-version-check --no-deps "$wheel"
echo "test-python: $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB) installed from the file into a fresh venv in $(( ($(date +%s%N) - started) / 1000000 )) ms" >&2
"$fresh/bin/python" - <<'PYTHON'
import pathlib, re
readme = pathlib.Path("README.md").read_text()
(example,) = re.findall(r"^```python\n(.*?)^```", readme, re.M | re.S)
exec(compile(example, "README.md", "exec"), {})
PYTHON
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps --force-reinstall "$wheel"
"$venv/bin/python" -m pytest -q python/tests
"$venv/bin/python" scripts/typecheck-python-examples.py
