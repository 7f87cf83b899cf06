#!/usr/bin/env bash
# Clued boards that no greedy rule replays (issue 64), each route side by
# side; prints a markdown table (docs/notebook.md, "Clued boards from
# random tours"). Release build; whole-process wall seconds, one run a board.
#
#   scripts/bench-clues.sh
#   SIZES="20 30" SEEDS="1 2" TIMEOUT=60 scripts/bench-clues.sh
#
# Each board is N x N with one clue every N/2 moves of a random tour
# (scripts/clued-boards.py N SEED: Warnsdorff's tour scrambled by random
# Posa rotations), so 40 clues on 20x20, 60 on 30x30, 100 on 50x50. Every
# answer is checked by `knightsat verify` against the board and its clues;
# a wrong one stops the script.
#
# SIZES    board sizes (default "20 30 40 50 60")
# SEEDS    the tours' seeds (default "1 2 3 4 5")
# ROUTES   which columns, of: default backtrack cadical successor corridor
#          (corridor: --corridor 4 alone, on varisat; it may find none, "gave up")
# TIMEOUT  seconds a run (default 60); "> T s" when no answer came
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${SIZES:-"20 30 40 50 60"}
SEEDS=${SEEDS:-"1 2 3 4 5"}
ROUTES=${ROUTES:-"default backtrack cadical successor"}
TIMEOUT=${TIMEOUT:-60}

cargo build --quiet --release
ks=${CARGO_TARGET_DIR:-$PWD/target}/release/knightsat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The flags of a route.
flags_of() {
  case "$1" in
    default) ;;
    backtrack) echo "--method backtrack" ;;
    cadical) echo "--method sat --solver cadical" ;;
    successor) echo "--encoding successor --solver cadical" ;;
    corridor) echo "--corridor 4" ;;
    *) echo "bench-clues: unknown route $1" >&2; exit 2 ;;
  esac
}

# Seconds of one verified run, "> T s", "no tour" (which a board made from
# a tour cannot have: a wrong answer), or "error N".
run_once() {
  local n=$1 route=$2 start end rc=0
  shift 2
  start=$(date +%s.%N)
  # shellcheck disable=SC2046
  timeout $((TIMEOUT + 10)) "$ks" solve --size "$n" "$@" $(flags_of "$route") --format moves --timeout "$TIMEOUT" \
    > "$tmp/tour" 2> "$tmp/err" || rc=$?
  end=$(date +%s.%N)
  case "$rc" in
    0)
      if ! "$ks" verify --size "$n" "$@" "$tmp/tour" > /dev/null 2> "$tmp/verify"; then
        echo "bench-clues: $route on ${n}x$n gave a tour that fails verify: $(cat "$tmp/verify")" >&2
        exit 1
      fi
      printf "%.2f\n" "$(echo "$end - $start" | bc)"
      ;;
    124) echo "> $TIMEOUT s" ;;
    3) echo "gave up" ;;
    20) echo "bench-clues: $route on ${n}x$n says no tour, but the clues come from one" >&2; exit 1 ;;
    *) echo "error $rc: $(head -n 1 "$tmp/err")" ;;
  esac
}

header="| board | seed | clues |"
rule="| --- | ---: | ---: |"
for route in $ROUTES; do
  header+=" $route |"
  rule+=" ---: |"
done
echo "$header"
echo "$rule"
for n in $SIZES; do
  for seed in $SEEDS; do
    read -r -a clues <<< "$(python3 scripts/clued-boards.py "$n" "$seed" --knightsat "$ks")"
    row="| ${n}x$n | $seed | $((${#clues[@]} / 2)) |"
    for route in $ROUTES; do
      row+=" $(run_once "$n" "$route" "${clues[@]}") |"
    done
    echo "$row"
  done
done
echo
echo "Routes: default = \`solve --size N --at ...\`; $(for r in $ROUTES; do [ "$r" = default ] || printf '%s = `%s`; ' "$r" "$(flags_of "$r")"; done)"
