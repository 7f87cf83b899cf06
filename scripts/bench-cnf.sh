#!/usr/bin/env bash
# Benchmarks the complete CNF a solver program takes (issue 84): the successor
# encoding's complete formula (Heule's Chinese remainder encoding, positions
# one-hot) in its variants, written by `knightsat encode` and solved by a solver
# program, on N x N boards. Prints the command, the machine and a markdown
# table: per board and variant, the formula's size, the seconds to write it, and
# the solver's whole-process wall time for each seed with their median (a run
# past TIMEOUT counts as TIMEOUT for the median: a bound, shown with `>`).
# Every model is decoded by `knightsat decode`, which checks the tour.
#
#   scripts/bench-cnf.sh                                       # 20x20 and 30x30 closed
#   SIZES="30 40" SEEDS="0 1 2" TIMEOUT=300 scripts/bench-cnf.sh
#   VARIANTS="cre both" SOLVER=cadical TOURS="closed open" scripts/bench-cnf.sh
#
# Variants (VARIANTS, default all four):
#   cre      --no-parity: Heule's CRE alone
#   parity   the default formula of --encoding successor: the positions'
#            parity on a bipartite move graph
#   support  --no-parity --position-support: the support clauses
#   both     --position-support: parity and support
#   lapN     --lap-length N (lap420, for example): moduli for laps of N
#            positions and a lap counter, with the parity
#   lfsr     --positions lfsr --no-parity: Heule's CRE as published (his
#            moduli, residues in bits stepped by binary counters and
#            linear-feedback shift registers), the rest knightsat's formula
#   lfsrp    --positions lfsr: the same with the parity (the counter's
#            lowest bit)
#   binary   --positions binary --no-parity: the binary ordering encoding,
#            one counter in bits with carries, p(v) = p(u) + 1
#   binaryp  --positions binary: the same with the parity
#   unary    --positions unary --no-parity: the unary ordering encoding
#   unaryp   --positions unary: the same with the parity
#   ve       --acyclicity vertex-elimination: no positions, acyclicity by vertex
#            elimination (least degree first)
#   heule    Heule's own tools (github marijnheule/ChineseRemainderEncoding,
#            a checkout given as HEULE_CRE=DIR, built here with gcc; this
#            script fetches nothing): `knight-graph N | hcp-encode - BOUND`
#            with the bound of his run-wo-cycle.sh (105 doubled until it
#            covers the squares), positions as linear-feedback shift
#            registers; closed tours only; its model checked by his
#            hcp-decode ("VERIFIED")
# SIZES (default "20 30"), TOURS (closed and/or open, default closed), SEEDS
# (default "0 1 2"; kissat's --seed, CaDiCaL's --seed), TIMEOUT seconds per run
# (default 120), SOLVER (kissat, default, or cadical: the program on PATH).
set -euo pipefail

SIZES=${SIZES:-"20 30"}
TOURS=${TOURS:-closed}
SEEDS=${SEEDS:-"0 1 2"}
TIMEOUT=${TIMEOUT:-120}
SOLVER=${SOLVER:-kissat}
VARIANTS=${VARIANTS:-"cre parity support both"}
root=$(cd "$(dirname "$0")/.." && pwd)
KS=${KNIGHTSAT:-$root/target/release/knightsat}

command -v "$SOLVER" > /dev/null || { echo "bench-cnf: no $SOLVER on PATH (scripts/install-solvers.sh)" >&2; exit 2; }
[ -x "$KS" ] || (cd "$root" && cargo build --release --quiet)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ " $VARIANTS " == *" heule "* ]]; then
  [ -f "${HEULE_CRE:-}/hcp-encode.c" ] || { echo "bench-cnf: the heule variant needs HEULE_CRE=DIR, a checkout of marijnheule/ChineseRemainderEncoding" >&2; exit 2; }
  for tool in knight-graph hcp-encode hcp-decode; do
    gcc -O2 -o "$tmp/$tool" "$HEULE_CRE/$tool.c" || exit 2
  done
fi

flags_of() {
  case $1 in
    cre) echo "--no-parity" ;;
    parity) echo "" ;;
    support) echo "--no-parity --position-support" ;;
    both) echo "--position-support" ;;
    lap[0-9]*) echo "--lap-length ${1#lap}" ;;
    lfsr) echo "--positions lfsr --no-parity" ;;
    lfsrp) echo "--positions lfsr" ;;
    binary) echo "--positions binary --no-parity" ;;
    binaryp) echo "--positions binary" ;;
    unary) echo "--positions unary --no-parity" ;;
    unaryp) echo "--positions unary" ;;
    ve) echo "--acyclicity vertex-elimination" ;;
    *) echo "bench-cnf: unknown variant $1" >&2; exit 2 ;;
  esac
}

# Runs "$@" and prints "STATUS SECONDS" (wall time).
wall() {
  local start end rc=0
  start=$(date +%s.%N)
  "$@" > "$tmp/out" 2> /dev/null || rc=$?
  end=$(date +%s.%N)
  echo "$rc $(echo "$end - $start" | bc -l | xargs printf '%.2f')"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }


echo "### The complete CNF by $SOLVER: seconds to a tour per seed (timeout $TIMEOUT s)"
echo
echo "Command: SIZES=\"$SIZES\" TOURS=\"$TOURS\" SEEDS=\"$SEEDS\" TIMEOUT=$TIMEOUT SOLVER=$SOLVER VARIANTS=\"$VARIANTS\" scripts/bench-cnf.sh"
echo "Machine: $(nproc) cores, $(uname -m), $("$SOLVER" --version 2>&1 | head -1), $(date -u +%Y-%m-%d)"
echo
echo "| board | variant | variables | clauses | encode s | $SOLVER s by seed | median |"
echo "| --- | --- | ---: | ---: | ---: | --- | ---: |"
for n in $SIZES; do
  for tour in $TOURS; do
    flag=""; [ "$tour" = closed ] && flag="--closed"
    for variant in $VARIANTS; do
      if [ "$variant" = heule ]; then
        [ "$tour" = closed ] || continue
        "$tmp/knight-graph" "$n" > "$tmp/g.edge"
        bound=105; while [ "$bound" -lt $((n * n)) ]; do bound=$((bound * 2)); done
        read -r rc secs < <(wall "$tmp/hcp-encode" "$tmp/g.edge" "$bound")
        mv "$tmp/out" "$tmp/f.cnf"
      else
        # shellcheck disable=SC2046
        read -r rc secs < <(wall "$KS" encode --size "$n" $flag --encoding successor $(flags_of "$variant") -o "$tmp/f.cnf")
      fi
      if [ "$rc" != 0 ]; then echo "| ${n}x$n $tour | $variant | encode failed (exit $rc) | | | | |"; continue; fi
      read -r _ _ vars clauses < <(grep -m1 '^p cnf' "$tmp/f.cnf")
      times=(); runs=()
      for seed in $SEEDS; do
        read -r rc t < <(wall timeout "$TIMEOUT" "$SOLVER" -q "--seed=$seed" "$tmp/f.cnf")
        case $rc in
          10)
            if [ "$variant" = heule ] && "$tmp/hcp-decode" "$tmp/g.edge" "$tmp/out" | grep -q VERIFIED; then
              runs+=("$t"); times+=("$t")
            elif [ "$variant" != heule ] && "$KS" decode --cnf "$tmp/f.cnf" "$tmp/out" --format moves > /dev/null 2> "$tmp/err"; then
              runs+=("$t"); times+=("$t")
            else
              runs+=("check failed"); times+=("$TIMEOUT")
            fi ;;
          124) runs+=("> $TIMEOUT"); times+=("$TIMEOUT") ;;
          *) runs+=("exit $rc"); times+=("$TIMEOUT") ;;
        esac
      done
      med=$(printf '%s\n' "${times[@]}" | median)
      [ "$(echo "$med >= $TIMEOUT" | bc -l)" = 1 ] && med="> $TIMEOUT"
      joined=$(IFS=,; echo "${runs[*]}" | sed 's/,/, /g')
      echo "| ${n}x$n $tour | $variant | $vars | $clauses | $secs | $joined | $med |"
    done
  done
done
