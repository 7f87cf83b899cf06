#!/usr/bin/env bash
# Benchmarks encodings: for each board and encoding variant, a markdown row of
# variables, clauses, DIMACS bytes, encode time, and the median solve time of
# varisat (in-process) and of kissat, cadical and minisat (when on PATH) over
# RUNS runs each (kissat with a different --seed each run).
#
#   scripts/bench.sh                      # the default table
#   BOARDS="8x8:--start=a1" VARIANTS="default naive" RUNS=5 scripts/bench.sh
#
# BOARDS: space-separated ROWSxCOLS[:extra,options] (commas become spaces).
# VARIANTS: default, naive, or amo=NAME, or any "--flag" list joined by commas.
# SOLVERS: which solvers to time (default: varisat and those of kissat,
# cadical, minisat on PATH). TIMEOUT: seconds per run (default 60).
set -euo pipefail
cd "$(dirname "$0")/.."

BOARDS=${BOARDS:-"8x8:--start,a1 8x8:--closed 12x12:--start,a1 16x16:--start,a1 20x20:--start,a1"}
VARIANTS=${VARIANTS:-"naive default amo=pairwise amo=sequential amo=commander amo=product amo=bimander"}
RUNS=${RUNS:-3}
TIMEOUT=${TIMEOUT:-60}
if [ -z "${SOLVERS:-}" ]; then
  SOLVERS=varisat
  for s in kissat cadical minisat; do command -v "$s" > /dev/null && SOLVERS="$SOLVERS $s"; done
fi

cargo build --quiet --release
ks=${CARGO_TARGET_DIR:-target}/release/knightsat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Prints the median of the numbers on stdin ("timeout" counts as infinite).
median() { sort -g | awk '{ v[NR] = $1 } END { m = v[int((NR + 1) / 2)]; if (m == "inf") print "timeout"; else printf "%.3f\n", m }'; }

# Runs a command, prints its wall time in seconds or "inf" past the timeout.
timed() {
  local start end rc=0
  start=$(date +%s.%N)
  timeout "$TIMEOUT" "$@" > /dev/null 2>&1 || rc=$?
  end=$(date +%s.%N)
  if [ "$rc" -eq 124 ]; then echo inf; else echo "$end - $start" | bc; fi
}

variant_flags() {
  case "$1" in
    default) echo "" ;;
    naive) echo "--preset naive" ;;
    amo=*) echo "--amo ${1#amo=}" ;;
    *) echo "${1//,/ }" ;;
  esac
}

echo "Runs per cell: $RUNS (median), timeout ${TIMEOUT}s; $(nproc) cores; $(date -u +%F)"
for spec in $BOARDS; do
  board=${spec%%:*}
  extra=""
  [ "$spec" != "$board" ] && extra=${spec#*:} && extra=${extra//,/ }
  echo
  echo "### $board $extra"
  echo
  header="| variant | vars | clauses | DIMACS MB | encode s |"
  rule="| --- | ---: | ---: | ---: | ---: |"
  for s in $SOLVERS; do header="$header $s s |"; rule="$rule ---: |"; done
  echo "$header"
  echo "$rule"
  for variant in $VARIANTS; do
    flags="$(variant_flags "$variant") $extra"
    # shellcheck disable=SC2086
    $ks encode --board "$board" $flags -o "$tmp/f.cnf" 2> /dev/null
    read -r vars clauses < <(grep -m1 '^p cnf' "$tmp/f.cnf" | awk '{ print $3, $4 }')
    mb=$(stat -c %s "$tmp/f.cnf" | awk '{ printf "%.1f", $1 / 1e6 }')
    # shellcheck disable=SC2086
    enc=$(for _ in $(seq "$RUNS"); do timed $ks encode --board "$board" $flags -o /dev/null; done | median)
    row="| $variant | $vars | $clauses | $mb | $enc |"
    for s in $SOLVERS; do
      case "$s" in
        # shellcheck disable=SC2086
        varisat) t=$(for _ in $(seq "$RUNS"); do timed $ks solve --board "$board" $flags --no-theory; done | median) ;;
        kissat) t=$(for i in $(seq "$RUNS"); do timed kissat -q --seed="$i" "$tmp/f.cnf"; done | median) ;;
        cadical) t=$(for i in $(seq "$RUNS"); do timed cadical -q --seed="$i" "$tmp/f.cnf"; done | median) ;;
        minisat) t=$(for i in $(seq "$RUNS"); do timed minisat -rnd-seed="$i" "$tmp/f.cnf"; done | median) ;;
        *) t="?" ;;
      esac
      row="$row $t |"
    done
    echo "$row"
  done
done
