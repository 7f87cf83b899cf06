#!/usr/bin/env bash
# Benchmarks the default route (--method auto) against the routes it picks
# from, and prints markdown tables (docs/notebook.md, "The default
# route"). Release build; whole-process wall times, median of RUNS runs.
#
#   scripts/bench-auto.sh                       # every section
#   SECTIONS="choice" scripts/bench-auto.sh
#
# Sections:
#   default  `solve --size N [--closed]` with no other flags, N in SIZES,
#            plus holed boards and leapers (goal: a verified tour within
#            1 s up to 200x200, 10 s up to 2000x2000)
#   count    default `count` against --method sat and --method backtrack
#            on the counting table's boards and puzzles (goal: never more
#            than 1.2x the faster)
#   choice   the evidence for the rule: where Warnsdorff's rule gives up,
#            and on clued boards, each candidate route side by side
#   clues    clued boards from 8x8 to 50x50 (unique puzzles from seeds, and
#            one clue every N/2 moves of a Warnsdorff tour, N in CLUE_SIZES)
#            on each route, the time-indexed encoding with and without its
#            move variables; then the time to make a unique puzzle, N in
#            PUZZLE_SIZES, and the clues of one made with --timeout 60
#            (goals: 30x30 <= 10 s, 50x50 <= 60 s, a unique 20x20 puzzle
#            <= 60 s); beside them the peers OR-Tools CP-SAT, one worker,
#            timed inside Python (scripts/cpsat_clues.py: AddCircuit plus a
#            position per square, and seed 002's position model), on boards
#            up to CPSAT_MAX x CPSAT_MAX (default 30; larger models take
#            minutes to build); ortools goes into target/bench-venv
#            (scripts/bench-venv.sh). SKIP_CPSAT=1 leaves them out.
#   race     the default route on clued boards, which races two formulations
#            (bimander and pairwise at-most-ones), against each alone
#            (--method sat): clue sets from a SAT tour (the successor
#            encoding's on CaDiCaL, which backtracking does not follow), one
#            clue every N/2 moves from move R, R in RACE_OFFSETS, and the
#            Warnsdorff clue set; N in RACE_SIZES
# TIMEOUT: seconds per run (default 30).
set -euo pipefail
cd "$(dirname "$0")/.."

SECTIONS=${SECTIONS:-"default count choice"}
SIZES=${SIZES:-"8 12 16 20 30 50 64 100 200 500 1000 2000"}
CLUE_SIZES=${CLUE_SIZES:-"16 20 24 30 36 40 50"}
PUZZLE_SIZES=${PUZZLE_SIZES:-"12 16 20"}
RACE_SIZES=${RACE_SIZES:-"16 20 24 30"}
RACE_OFFSETS=${RACE_OFFSETS:-"1 3 6 9"}
RUNS=${RUNS:-3}
TIMEOUT=${TIMEOUT:-30}
CPSAT_MAX=${CPSAT_MAX:-30}
SKIP_CPSAT=${SKIP_CPSAT:-0}

cargo build --quiet --release
ks=${CARGO_TARGET_DIR:-$PWD/target}/release/knightsat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Seconds of one run of knightsat with the arguments (stdout discarded),
# or "timeout", "gave up" (exit 3), or "error N".
run_once() {
  local start end rc=0
  start=$(date +%s.%N)
  timeout "$TIMEOUT" "$ks" "$@" > /dev/null 2> "$tmp/err" || rc=$?
  end=$(date +%s.%N)
  case "$rc" in
    0 | 20) printf "%.3f\n" "$(echo "$end - $start" | bc)" ;;
    124) echo "timeout" ;;
    3) echo "gave up" ;;
    *) echo "error $rc" ;;
  esac
}

# The median of RUNS runs, or the first non-number.
median_of() {
  local times=() t
  for _ in $(seq "$RUNS"); do
    t=$(run_once "$@")
    if ! [[ $t =~ ^[0-9.]+$ ]]; then
      [ "$t" = timeout ] && t="> $TIMEOUT s"
      echo "$t"
      return
    fi
    times+=("$t")
  done
  printf "%s\n" "${times[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# The route -v names for the arguments.
route_of() {
  timeout "$TIMEOUT" "$ks" "$@" -v 2>&1 > /dev/null | sed -n 's/^route: //p;s/^note: no tour, proved without search by the feasibility gate.*/the feasibility gate/p' | head -n 1
}

# The clues of the puzzle `puzzle --timeout 60` makes, and how many it left
# untried when the minute ran out (none: the puzzle is minimal).
within_a_minute() {
  "$ks" puzzle "$@" --timeout 60 2>&1 > /dev/null | sed -n 's/.*board: \([0-9]*\) clues.*/\1/p;s/.*ran out with \([0-9]*\) of.*/(\1 untried)/p' | tr '\n' ' '
}

# CP-SAT's seconds with MODEL (circuit or position) on the N x N board with
# the clue arguments (--at K=SQ ... or --puzzle FILE): one run, timed inside
# Python; "> TIMEOUT s", "none" or "-" (not run: SKIP_CPSAT, or N over
# CPSAT_MAX).
cpsat() {
  local model=$1 n=$2 rc=0 out
  shift 2
  if [ -z "${py:-}" ] || [ "$n" -gt "$CPSAT_MAX" ]; then
    echo "-"
    return
  fi
  out=$(timeout $((TIMEOUT + 120)) "$py" scripts/cpsat_clues.py "$model" "$n" "$@" --timeout "$TIMEOUT" 2> "$tmp/err") || rc=$?
  case "$rc" in
    0) echo "$out" ;;
    20) echo "none" ;;
    124) echo "> $TIMEOUT s" ;;
    *) echo "error $rc" ;;
  esac
}

# The number of clues in a puzzle grid.
clue_count() {
  awk 'NF > 1 && $1 ~ /^[0-9]+$/ { for (i = 2; i <= NF; i++) if ($i != ".") c++ } END { print c }' "$1"
}

if [[ " $SECTIONS " == *" default "* ]]; then
  echo "### solve with no flags (median of $RUNS, seconds)"
  echo
  echo "| board | open | closed | route (open; closed) |"
  echo "| --- | ---: | ---: | --- |"
  for n in $SIZES; do
    open=$(median_of solve --size "$n")
    closed=$(median_of solve --size "$n" --closed)
    echo "| ${n}x$n | $open | $closed | $(route_of solve --size "$n"); $(route_of solve --size "$n" --closed) |"
  done
  for args in "--size 30 --holes a1,b1,c5,c6" "--size 100 --holes e5,f5" "--size 500 --holes d4,d5" \
    "--size 50 --leaper 2,3" "--size 40 --leaper 1,4"; do
    # shellcheck disable=SC2086
    open=$(median_of solve $args)
    # shellcheck disable=SC2086
    closed=$(median_of solve $args --closed)
    # shellcheck disable=SC2086
    echo "| \`$args\` | $open | $closed | $(route_of solve $args); $(route_of solve $args --closed) |"
  done
  echo
fi

# Puzzles for the count and choice sections.
"$ks" puzzle --size 8 --seed 1 > "$tmp/p8o.txt" 2> /dev/null
"$ks" puzzle --size 8 --closed --seed 2 > "$tmp/p8c.txt" 2> /dev/null
"$ks" puzzle --size 10 --seed 1 > "$tmp/p10.txt" 2> /dev/null

if [[ " $SECTIONS " == *" count "* ]]; then
  echo "### count: default against each method (median of $RUNS, seconds)"
  echo
  echo "| problem | default | sat | backtrack | frontier | default / fastest | route |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
  for args in "--size 5" "--board 3x10" "--board 5x6 --closed" "--size 5 --start a1" "--board 5x6" \
    "--board 5x7" "--size 6" "--size 6 --closed" "--size 6 --start a1" "--board 3x12 --closed" \
    "--board 3x20" "--board 4x10" "--board 4x16" "--board 5x8" "--board 5x8 --start a1" \
    "--board 5x10 --closed" "--board 6x7 --closed" "--board 6x8 --closed" "--board 8x8 --leaper 0,1" \
    "--puzzle $tmp/p8o.txt" "--puzzle $tmp/p8c.txt --closed" "--puzzle $tmp/p10.txt"; do
    # shellcheck disable=SC2086
    auto=$(median_of count $args)
    # shellcheck disable=SC2086
    sat=$(median_of count $args --method sat)
    # shellcheck disable=SC2086
    back=$(median_of count $args --method backtrack)
    # The frontier counter takes no clues (it refuses them, exit 2).
    front="-"
    # shellcheck disable=SC2086
    [[ $args == *--puzzle* ]] || front=$(median_of count $args --method frontier)
    ratio=$(awk -v a="$auto" -v s="$sat" -v b="$back" -v f="$front" 'BEGIN {
      m = ""; if (s ~ /^[0-9.]+$/) m = s; if (b ~ /^[0-9.]+$/ && (m == "" || b < m)) m = b;
      if (f ~ /^[0-9.]+$/ && (m == "" || f < m)) m = f;
      if (m == "" || a !~ /^[0-9.]+$/) print "-"; else printf "%.2f", a / m }')
    shown=${args//$tmp\//}
    # shellcheck disable=SC2086
    echo "| \`$shown\` | $auto | $sat | $back | $front | $ratio | $(route_of count $args) |"
  done
  echo
fi

# Clues along a Warnsdorff tour of the N x N board: one every N/2 moves.
clues_along() {
  local n=$1
  "$ks" solve --size "$n" --method warnsdorff --format moves 2> /dev/null |
    tr ' ' '\n' | awk -v step=$((n / 2)) 'NR % step == 1 { printf "--at %d=%s ", NR, $1 }'
}

# Clues along a SAT tour of the N x N board (the successor encoding's, on
# CaDiCaL): one every N/2 moves from move R.
clues_from_sat() {
  local n=$1 r=$2
  "$ks" solve --size "$n" --encoding successor --solver cadical --format moves 2> /dev/null |
    tr ' ' '\n' | awk -v step=$((n / 2)) -v r="$r" 'NR % step == r % step { printf "--at %d=%s ", NR, $1 }'
}

if [[ " $SECTIONS " == *" choice "* ]]; then
  echo "### Where Warnsdorff's rule gives up: the complete routes (median of $RUNS, seconds)"
  echo
  echo "| problem | warnsdorff | successor, cadical | successor, varisat | time-indexed, varisat | backtrack |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: |"
  for args in "--board 5x6 --start b1 --end c3" "--board 3x10 --start a1 --end d1" \
    "--board 4x7 --start b1 --end c1" "--size 10 --holes c3,d3 --start a1 --end j1" \
    "--size 20 --start a1 --end b1" "--size 40 --start a1 --end t20" "--size 16 --holes e5,e6 --closed --start h8"; do
    # shellcheck disable=SC2086
    w=$(median_of solve $args --method warnsdorff)
    # shellcheck disable=SC2086
    sc=$(median_of solve $args --encoding successor --solver cadical)
    # shellcheck disable=SC2086
    sv=$(median_of solve $args --encoding successor --solver varisat)
    # shellcheck disable=SC2086
    tv=$(median_of solve $args --method sat)
    # shellcheck disable=SC2086
    bt=$(median_of solve $args --method backtrack)
    echo "| \`$args\` | $w | $sc | $sv | $tv | $bt |"
  done
  echo
  echo "### Clued problems: one tour and the count (median of $RUNS, seconds)"
  echo
  echo "| problem | solve: varisat | solve: cadical | solve: backtrack | count: varisat | count: cadical | count: backtrack |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
  for p in p8o p8c p10; do
    closed=""
    [ "$p" = p8c ] && closed="--closed"
    args="--puzzle $tmp/$p.txt $closed"
    # shellcheck disable=SC2086
    echo "| puzzle \`$p\` | $(median_of solve $args --solver varisat) | $(median_of solve $args --solver cadical) | $(median_of solve $args --method backtrack) | $(median_of count $args --solver varisat) | $(median_of count $args --solver cadical) | $(median_of count $args --method backtrack) |"
  done
  for n in 16 20 24; do
    args="--size $n $(clues_along "$n")"
    # shellcheck disable=SC2086
    echo "| ${n}x$n, clue every $((n / 2)) moves | $(median_of solve $args --solver varisat) | $(median_of solve $args --solver cadical) | $(median_of solve $args --method backtrack) | - | - | - |"
  done
  echo
fi

if [[ " $SECTIONS " == *" clues "* ]]; then
  "$ks" puzzle --size 12 --seed 1 > "$tmp/p12.txt" 2> /dev/null
  kissat=$(command -v kissat || true)
  py=""
  [ "$SKIP_CPSAT" = 1 ] || py=$(scripts/bench-venv.sh)
  echo "### Clued boards on each route (median of $RUNS, seconds; CP-SAT one run)"
  echo
  echo "| problem | default | time-indexed, varisat, --no-moves | time-indexed, cadical | successor, cadical | time-indexed, kissat program | CP-SAT circuit + positions | CP-SAT position model | default route |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
  problems=("8:--puzzle $tmp/p8o.txt" "10:--puzzle $tmp/p10.txt" "12:--puzzle $tmp/p12.txt")
  for n in $CLUE_SIZES; do
    problems+=("$n:--size $n $(clues_along "$n")")
  done
  for problem in "${problems[@]}"; do
    n=${problem%%:*} args=${problem#*:}
    case "$args" in
      --puzzle*)
        file=${args#--puzzle }
        shown="${n}x$n puzzle (seed 1), $(clue_count "$file") clues"
        peer=(--puzzle "$file")
        ;;
      *)
        shown="${n}x$n, $(($(echo "$args" | wc -w) / 2 - 1)) clues"
        read -ra peer <<< "${args#--size "$n" }"
        ;;
    esac
    k="-"
    # shellcheck disable=SC2086
    [ -n "$kissat" ] && k=$(median_of solve $args --solver "$kissat")
    # shellcheck disable=SC2086
    echo "| $shown | $(median_of solve $args) | $(median_of solve $args --solver varisat --no-moves) | $(median_of solve $args --solver cadical) | $(median_of solve $args --encoding successor --solver cadical) | $k | $(cpsat circuit "$n" "${peer[@]}") | $(cpsat position "$n" "${peer[@]}") | $(route_of solve $args) |"
  done
  echo
  echo "### A unique puzzle (median of $RUNS, seconds)"
  echo
  echo "| board | puzzle --seed 1 | puzzle --seed 2 | --seed 1 --timeout 60: clues |"
  echo "| --- | ---: | ---: | --- |"
  for n in $PUZZLE_SIZES; do
    echo "| ${n}x$n | $(median_of puzzle --size "$n" --seed 1) | $(median_of puzzle --size "$n" --seed 2) | $(within_a_minute --size "$n" --seed 1) |"
  done
  echo
fi

if [[ " $SECTIONS " == *" race "* ]]; then
  echo "### The race on clued boards (median of $RUNS, seconds)"
  echo
  echo "| problem | default (race) | bimander alone | pairwise alone | default / bimander | default / faster alone | winner |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
  for n in $RACE_SIZES; do
    sets=("warnsdorff:$(clues_along "$n")")
    for r in $RACE_OFFSETS; do
      sets+=("sat tour, from move $r:$(clues_from_sat "$n" "$r")")
    done
    for set in "${sets[@]}"; do
      args="--size $n ${set#*:}"
      # shellcheck disable=SC2086
      race=$(median_of solve $args)
      # shellcheck disable=SC2086
      bim=$(median_of solve $args --method sat)
      # shellcheck disable=SC2086
      pair=$(median_of solve $args --method sat --amo pairwise)
      to_bim="-" to_faster="-"
      if [[ $race =~ ^[0-9.]+$ && $bim =~ ^[0-9.]+$ ]]; then
        to_bim=$(awk -v a="$race" -v b="$bim" 'BEGIN { printf "%.2f", a / b }')
      fi
      if [[ $race =~ ^[0-9.]+$ && $bim =~ ^[0-9.]+$ && $pair =~ ^[0-9.]+$ ]]; then
        to_faster=$(awk -v a="$race" -v b="$bim" -v c="$pair" 'BEGIN { printf "%.2f", a / (b < c ? b : c) }')
      fi
      # shellcheck disable=SC2086
      winner=$(route_of solve $args | sed -n 's/.*solver varisat, \([a-z]*\) at-most-ones.*/\1/p')
      echo "| ${n}x$n, $(($(echo "$args" | wc -w) / 2 - 1)) clues along the ${set%%:*} | $race | $bim | $pair | $to_bim | $to_faster | ${winner:--} |"
    done
  done
  echo
fi
