#!/usr/bin/env bash
# Regenerates fixtures/: the golden CNFs from the current encoder, and the saved
# solver outputs by running the real solvers on them. Review the diff before
# committing: a golden file that changes is a change of the encoding.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release
ks=${CARGO_TARGET_DIR:-target}/release/knightsat
kissat=${KISSAT:-kissat}

mkdir -p fixtures/golden fixtures/solver-output
$ks encode --board 3x3 -o fixtures/golden/3x3-open.cnf
$ks encode --board 3x4 -o fixtures/golden/3x4-open.cnf
$ks encode --board 5x6 --closed -o fixtures/golden/5x6-closed.cnf

# Runs a solver, accepting its SAT (10) and UNSAT (20) exit statuses.
solve() { local rc=0; "$@" || rc=$?; [ "$rc" -eq 10 ] || [ "$rc" -eq 20 ]; }

for board in 3x3 3x4; do
  cnf=fixtures/golden/$board-open.cnf
  out=fixtures/solver-output/$board-open
  solve "$kissat" "$cnf" > "$out.kissat.out"
  solve minisat "$cnf" "$out.minisat.out" > /dev/null
  solve cadical "$cnf" > "$out.cadical.out"
  solve picosat "$cnf" > "$out.picosat.out"
done
echo "fixtures regenerated; review 'git diff --stat fixtures'"
