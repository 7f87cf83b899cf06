#!/usr/bin/env bash
# Prints the path of a Python with OR-Tools (ortools from PyPI) for the
# CP-SAT peers of the benchmarks (scripts/cpsat_tour.py, cpsat_clues.py),
# python-sat and scipy for the clue prototypes (experiments/clue-*-prototype.py),
# and elkai (LKH-3 as a Python module) for scripts/lkh_hcp.py:
# the virtual environment target/bench-venv, made with python3 -m venv
# (on Debian that needs `apt-get install python3-venv`) and filled on first
# use. Messages go to stderr; exit 1 if it cannot be made.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/bench-venv
py=$venv/bin/python
fail() { echo "bench-venv: $*" >&2; exit 1; }

if [ ! -x "$py" ]; then
  echo "bench-venv: making the virtual environment $venv" >&2
  python3 -m venv "$venv" ||
    fail "python3 -m venv failed (on Debian: apt-get install -y python3-venv)"
fi
if ! "$py" -c 'import ortools, pysat, scipy, elkai' 2> /dev/null; then
  echo "bench-venv: installing ortools, python-sat, scipy and elkai from PyPI into $venv" >&2
  "$py" -m pip install --quiet --disable-pip-version-check ortools python-sat scipy elkai >&2 ||
    fail "pip install ortools python-sat scipy elkai"
fi
echo "$PWD/$py"
