#!/usr/bin/env bash
# Benchmarks the methods side by side (docs/notebook.md, "Search
# without SAT against SAT"): prints markdown tables. Release build,
# whole-process times (/usr/bin/time: wall seconds and peak resident memory).
#
#   scripts/bench-methods.sh                          # every section
#   SECTIONS="warnsdorff closed" scripts/bench-methods.sh
#
# Sections:
#   warnsdorff  open N x N tours, N in WARNSDORFF_SIZES, seeds 1..SEEDS:
#               median time, median and largest peak memory, runs that found a tour
#   closed      closed N x N tours, N in CLOSED_SIZES, default run (no seed)
#   small       every board of at most 36 squares (ROWS <= COLS), open and
#               closed, nothing fixed: time for backtracking and for SAT to
#               decide whether a tour exists (--no-theory: no theorem answers)
#   count       counting 5x5, 3x10 and 5x6 closed tours, SAT and backtracking
#   puzzles     proving that generated puzzles (8x8 open seed 1, 8x8 closed
#               seed 2, 10x10 open seed 1) have one solution: count --puzzle
#   table       N x N for N in TABLE_SIZES, open and closed: Warnsdorff,
#               backtracking, time-indexed SAT and successor SAT, median of
#               RUNS runs
# TIMEOUT: seconds per run of SAT or backtracking (default 60).
set -euo pipefail
cd "$(dirname "$0")/.."

SECTIONS=${SECTIONS:-"warnsdorff closed small count puzzles table"}
WARNSDORFF_SIZES=${WARNSDORFF_SIZES:-"8 50 100 500 1000 2000"}
SEEDS=${SEEDS:-100}
CLOSED_SIZES=${CLOSED_SIZES:-"8 100 500 1000 1500 2000 2048"}
TABLE_SIZES=${TABLE_SIZES:-"8 12 16 20 24 32 40 48 64"}
RUNS=${RUNS:-3}
TIMEOUT=${TIMEOUT:-60}

cargo build --quiet --release
ks=${CARGO_TARGET_DIR:-target}/release/knightsat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Runs knightsat with the arguments; prints "STATUS SECONDS PEAK_KB" (wall
# seconds to the millisecond, peak resident memory from /usr/bin/time).
measure() {
  local rc=0 start end
  start=$(date +%s.%N)
  # (count has no --timeout: timeout(1) stops it, also with exit 124.)
  /usr/bin/time -f "%M" -o "$tmp/time" timeout $((TIMEOUT + 1)) "$ks" "$@" \
    > /dev/null 2> "$tmp/err" || rc=$?
  end=$(date +%s.%N)
  printf "%s %.3f %s\n" "$rc" "$(echo "$end - $start" | bc)" "$(tail -n 1 "$tmp/time")"
}

# The median of the numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# Median seconds of RUNS runs of knightsat with the arguments, or "timeout"
# (exit 124: one run only) or "gave up" (exit 3) or "none" (exit 20).
median_run() {
  local times="" rc secs kb
  for _ in $(seq "$RUNS"); do
    read -r rc secs kb < <(measure "$@")
    case "$rc" in
      124) echo "> $TIMEOUT s"; return ;;
      3) echo "gave up ($secs s)"; return ;;
      0 | 20) times="$times $secs" ;;
      *) echo "exit $rc"; return ;;
    esac
  done
  local m
  m=$(echo "$times" | tr ' ' '\n' | grep . | median)
  if [ "$rc" = 20 ]; then echo "$m (none)"; else echo "$m"; fi
}

echo "$(nproc) cores; $(date -u +%F); knightsat $(git rev-parse --short HEAD)"

if [[ " $SECTIONS " == *" warnsdorff "* ]]; then
  echo
  echo "### Warnsdorff's rule, open tours, seeds 1 to $SEEDS"
  echo
  echo "| board | squares | median s | median peak MB | largest peak MB | found |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: |"
  for n in $WARNSDORFF_SIZES; do
    : > "$tmp/runs"
    for seed in $(seq "$SEEDS"); do
      measure solve --size "$n" --method warnsdorff --seed "$seed" --format moves >> "$tmp/runs"
    done
    found=$(awk '$1 == 0' "$tmp/runs" | wc -l)
    secs=$(awk '{ print $2 }' "$tmp/runs" | median)
    kb=$(awk '{ print $3 }' "$tmp/runs" | median)
    most=$(awk '{ print $3 }' "$tmp/runs" | sort -g | tail -n 1)
    printf "| %sx%s | %s | %s | %.0f | %.0f | %s/%s |\n" "$n" "$n" "$((n * n))" "$secs" \
      "$(echo "$kb / 1024" | bc -l)" "$(echo "$most / 1024" | bc -l)" "$found" "$SEEDS"
  done
fi

if [[ " $SECTIONS " == *" closed "* ]]; then
  echo
  echo "### Warnsdorff's rule, closed tours (no seed)"
  echo
  echo "| board | exit | s | peak MB |"
  echo "| --- | ---: | ---: | ---: |"
  for n in $CLOSED_SIZES; do
    read -r rc secs kb < <(measure solve --size "$n" --closed --method warnsdorff --format moves)
    printf "| %sx%s | %s | %s | %.0f |\n" "$n" "$n" "$rc" "$secs" "$(echo "$kb / 1024" | bc -l)"
  done
fi

if [[ " $SECTIONS " == *" small "* ]]; then
  echo
  echo "### Deciding existence on every board of at most 36 squares (--no-theory)"
  echo
  echo "| method | open: total s | slowest | closed: total s | slowest | answers |"
  echo "| --- | ---: | --- | ---: | --- | --- |"
  boards=""
  for rows in $(seq 1 6); do
    for cols in $(seq "$rows" $((36 / rows))); do boards="$boards ${rows}x${cols}"; done
  done
  for method in backtrack sat; do
    row="| $method"
    answers=""
    for kind in open closed; do
      flag=""
      [ "$kind" = closed ] && flag=--closed
      total=0
      slowest=0
      slowest_board=""
      for board in $boards; do
        read -r rc secs _ < <(measure solve --board "$board" $flag --no-theory --method "$method" --timeout "$TIMEOUT")
        total=$(echo "$total + $secs" | bc)
        answers="$answers$kind $board:$rc "
        if (($(echo "$secs > $slowest" | bc))); then slowest=$secs slowest_board=$board; fi
      done
      row="$row | $(printf %.2f "$total") | $slowest_board $slowest s"
    done
    echo "$answers" > "$tmp/answers-$method"
    echo "$row | $(tr ' ' '\n' < "$tmp/answers-$method" | grep -c ':0$') tours, $(tr ' ' '\n' < "$tmp/answers-$method" | grep -c ':20$') none, $(tr ' ' '\n' < "$tmp/answers-$method" | grep -c ':124$') timeouts |"
  done
  if cmp -s "$tmp/answers-backtrack" "$tmp/answers-sat"; then
    echo
    echo "Both methods gave the same answer on every board."
  else
    echo
    echo "The methods disagree or time out on: $(diff <(tr ' ' '\n' < "$tmp/answers-backtrack") <(tr ' ' '\n' < "$tmp/answers-sat") | grep '^[<>]' | tr '\n' ' ')"
  fi
fi

if [[ " $SECTIONS " == *" count "* ]]; then
  echo
  echo "### Counting (median of $RUNS runs)"
  echo
  echo "| tours | count | SAT s | backtracking s |"
  echo "| --- | ---: | ---: | ---: |"
  for spec in "5x5" "3x10" "5x6 --closed"; do
    # shellcheck disable=SC2086
    count=$("$ks" count --board $spec --method backtrack)
    # shellcheck disable=SC2086
    echo "| $spec | $count | $(median_run count --board $spec) | $(median_run count --board $spec --method backtrack) |"
  done
fi

if [[ " $SECTIONS " == *" puzzles "* ]]; then
  echo
  echo "### Puzzles: solving, and counting solutions, which proves there is one (median of $RUNS runs)"
  echo
  echo "| puzzle | clues | solve: SAT s | backtracking s | count: SAT s | backtracking s |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: |"
  for spec in "8:1:" "8:2:--closed" "10:1:"; do
    # (the puzzle file is written afresh each time: generation is reproducible)
    IFS=: read -r n seed closed <<< "$spec"
    # shellcheck disable=SC2086
    "$ks" puzzle --size "$n" --seed "$seed" $closed > "$tmp/puzzle.txt" 2> /dev/null
    clues=$(grep -o '[0-9]\+' "$tmp/puzzle.txt" | wc -l)
    clues=$((clues - n)) # less the rank labels
    # shellcheck disable=SC2086
    kind=${closed#--}
    echo "| ${n}x${n} ${kind:-open} seed $seed | $clues | $(median_run solve --puzzle "$tmp/puzzle.txt" $closed) | $(median_run solve --puzzle "$tmp/puzzle.txt" $closed --method backtrack --timeout "$TIMEOUT") | $(median_run count --puzzle "$tmp/puzzle.txt" $closed) | $(median_run count --puzzle "$tmp/puzzle.txt" $closed --method backtrack) |"
  done
fi

if [[ " $SECTIONS " == *" table "* ]]; then
  echo
  echo "### Side by side: seconds to a tour (median of $RUNS runs; timeout $TIMEOUT s)"
  echo
  echo "| board | Warnsdorff | backtracking | time-indexed SAT (varisat) | successor SAT (varisat) |"
  echo "| --- | ---: | ---: | ---: | ---: |"
  for n in $TABLE_SIZES; do
    for kind in open closed; do
      flag=""
      [ "$kind" = closed ] && flag=--closed
      # shellcheck disable=SC2086
      echo "| ${n}x${n} $kind | $(median_run solve --size "$n" $flag --method warnsdorff) | $(median_run solve --size "$n" $flag --method backtrack --timeout "$TIMEOUT") | $(median_run solve --size "$n" $flag --timeout "$TIMEOUT") | $(median_run solve --size "$n" $flag --encoding successor --timeout "$TIMEOUT") |"
    done
  done
fi
