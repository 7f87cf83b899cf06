#!/usr/bin/env bash
# Benchmarks the successor encoding against its peer, OR-Tools CP-SAT's circuit
# constraint (scripts/cpsat_tour.py), on N x N boards, open and closed tours:
# prints the command, the machine and a markdown table of median seconds to a
# tour over RUNS runs.
#
#   scripts/bench-successor.sh                                  # every column
#   SIZES="8 12 30" SKIP="time-indexed kissat" scripts/bench-successor.sh
#
# Columns (SKIP takes cpsat, successor, cadical, program, cuts, time-indexed and
# kissat; each ratio shows when neither of its columns is skipped):
#   cpsat         CP-SAT, AddCircuit, one worker: seconds measured inside Python
#                 around model building plus Solve (no start-up, no import).
#                 Open tours start on a1 (a dummy node: dummy -> a1 fixed,
#                 s -> dummy for every square), closed tours are a plain circuit.
#                 ortools comes from PyPI, installed into the virtual environment
#                 target/bench-venv (made with python3 -m venv when missing: on
#                 Debian that needs `apt-get install python3-venv`)
#   successor     knightsat solve --encoding successor, in-process (varisat),
#                 whole-process wall time; the tour is checked with
#                 `knightsat verify` once per cell
#   ratio         CP-SAT / successor: > 1 means knightsat is faster
#   cadical       the same with --solver cadical: CaDiCaL linked in, incremental
#   program       the same with --solver "$(command -v cadical)": CaDiCaL's
#                 program (Debian's), re-run on the clauses so far each round
#   speed-up      program / cadical: > 1 means the built-in CaDiCaL is faster
#   cuts          the same with --no-patching: the subtour loop by cuts alone,
#                 no model's subtours patched together into a tour
#   time-indexed  knightsat solve with the default (time-indexed) encoding,
#                 whole-process wall time; only for N <= TI_MAX (default 30),
#                 `–` above
#   kissat        knightsat encode --encoding successor to a file (timed on its
#                 own: in parentheses, with the file's size), then kissat on that
#                 complete CNF (whole-process wall time), then knightsat decode,
#                 which checks the tour
# Every tool's open tours start on a1 (knightsat: --start a1; a note under the
# table names any tour checked that did not); closed tours are fixed to start
# on a1 (a rotation: loses no tour).
#
# SIZES: the N to run (default "8 12 16 20 30 40 50 64"). RUNS: runs per cell
# (default 3). TIMEOUT: seconds per run (default 60; a cell that times out once
# shows `> TIMEOUT s` and is not run again). SKIP: columns to leave out.
# KS: the knightsat binary (default target/release/knightsat; the release build
# is made first unless NO_BUILD=1). CPSAT_WORKERS: CP-SAT's num_workers
# (default 1). kissat is looked up on PATH, where scripts/install-solvers.sh
# puts it (/usr/local/bin as root, ~/.local/bin otherwise).
# Exit status 1 when a cell failed (wrong exit status, or a tour that did not
# check): the table says which.
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${SIZES:-"8 12 16 20 30 40 50 64"}
RUNS=${RUNS:-3}
TIMEOUT=${TIMEOUT:-60}
SKIP=${SKIP:-}
KS=${KS:-${CARGO_TARGET_DIR:-target}/release/knightsat}
TI_MAX=${TI_MAX:-30}
CPSAT_WORKERS=${CPSAT_WORKERS:-1}
NO_BUILD=${NO_BUILD:-0}

say() { echo "bench-successor: $*" >&2; }
fail() { say "$*"; exit 1; }

for column in $SKIP; do
  case "$column" in
    cpsat | successor | cadical | program | cuts | time-indexed | kissat) ;;
    *) fail "SKIP: no column '$column' (cpsat, successor, cadical, program, cuts, time-indexed, kissat)" ;;
  esac
done
skipped() { [[ " $SKIP " == *" $1 "* ]]; }

if [ "$NO_BUILD" != 1 ]; then cargo build --quiet --release; fi
[ -x "$KS" ] || fail "no knightsat binary at $KS"

py=""
if ! skipped cpsat; then
  py=$(scripts/bench-venv.sh) || fail "no Python with ortools"
fi

kissat=""
if ! skipped kissat; then
  kissat=$(command -v kissat || true)
  for candidate in /usr/local/bin/kissat "$HOME/.local/bin/kissat"; do
    if [ -z "$kissat" ] && [ -x "$candidate" ]; then kissat=$candidate; fi
  done
  [ -n "$kissat" ] || fail "kissat is not on PATH: run scripts/install-solvers.sh, or SKIP=kissat"
fi

cadical_program=""
if ! skipped program; then
  cadical_program=$(command -v cadical || true)
  [ -n "$cadical_program" ] || fail "cadical is not on PATH: run scripts/install-solvers.sh, or SKIP=program"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Runs the command; its stdout goes to $tmp/out, stderr to $tmp/err. Prints
# "STATUS SECONDS" (wall seconds to the millisecond).
wall() {
  local rc=0 start end
  start=$(date +%s.%N)
  "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
  end=$(date +%s.%N)
  printf "%s %.3f\n" "$rc" "$(echo "$end - $start" | bc)"
}

# The median of the numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
median_of() { echo "$1" | tr ' ' '\n' | grep . | median; }

# A cell that went wrong: said on stderr (with the command's stderr), marked
# for the exit status; prints the text for the table.
broken() {
  local what=$1 text=$2
  say "$what: $text"
  sed 's/^/    /' "$tmp/err" >&2 || true
  touch "$tmp/failed"
  echo "$text"
}

# The cell functions print one token for the table: median seconds, `timeout`,
# `none` (no tour: wrong for these boards) or another failure's text.

cpsat_cell() { # N KIND
  local n=$1 kind=$2 rc=0 flag=""
  if [ "$kind" = closed ]; then flag=--closed; else flag="--start a1"; fi
  rm -f "$tmp/cpsat.tour"
  # (CP-SAT stops itself at TIMEOUT; timeout(1) is only a safety net)
  timeout $(((TIMEOUT + 60) * RUNS)) "$py" scripts/cpsat_tour.py "$n" "$kind" \
    --workers "$CPSAT_WORKERS" --runs "$RUNS" --timeout "$TIMEOUT" --tour "$tmp/cpsat.tour" \
    > "$tmp/cpsat" 2> "$tmp/err" || rc=$?
  case "$rc" in
    0) ;;
    124) echo timeout; return ;;
    20) broken "CP-SAT ${n}x$n $kind" none; return ;;
    *) broken "CP-SAT ${n}x$n $kind" "exit $rc"; return ;;
  esac
  # cpsat_tour.py checks its tours; knightsat checks the last one again
  # shellcheck disable=SC2086
  if ! "$KS" verify --size "$n" $flag "$tmp/cpsat.tour" > /dev/null 2> "$tmp/err"; then
    broken "CP-SAT ${n}x$n $kind" "INVALID tour"
    return
  fi
  median < "$tmp/cpsat"
}

# Median of RUNS runs of `knightsat solve` with the arguments (the first run's
# tour is checked with knightsat verify); NAME for messages.
solve_cell() { # NAME N KIND SOLVE-ARGS...
  local name=$1 n=$2 kind=$3 flag="" times="" rc secs first
  shift 3
  if [ "$kind" = closed ]; then flag=--closed; else flag="--start a1"; fi
  for run in $(seq "$RUNS"); do
    # shellcheck disable=SC2086
    read -r rc secs < <(wall timeout $((TIMEOUT + 1)) "$KS" solve --size "$n" $flag "$@" \
      --timeout "$TIMEOUT" --format moves)
    case "$rc" in
      0) times="$times $secs" ;;
      124) echo timeout; return ;;
      20) broken "$name ${n}x$n $kind" none; return ;;
      *) broken "$name ${n}x$n $kind" "exit $rc"; return ;;
    esac
    if [ "$run" = 1 ]; then
      # shellcheck disable=SC2086
      if ! "$KS" verify --size "$n" $flag "$tmp/out" > /dev/null 2> "$tmp/err"; then
        broken "$name ${n}x$n $kind" "INVALID tour"
        return
      fi
      first=$(head -c 16 "$tmp/out" | cut -d' ' -f1)
      if [ "$first" != a1 ]; then echo "$name ${n}x$n $kind: the tour starts on $first, not a1" >> "$tmp/notes"; fi
    fi
  done
  median_of "$times"
}

# kissat on the complete successor CNF: prints "SOLVE<tab>ENCODE<tab>MB" (the
# medians of both steps; SOLVE `timeout`, or `–` when the encoding timed out,
# then ENCODE `timeout`; MB empty when there is no CNF).
kissat_cell() { # N KIND
  local n=$1 kind=$2 flag="" solves="" encodes="" rc secs mb=""
  if [ "$kind" = closed ]; then flag=--closed; else flag="--start a1"; fi
  for _ in $(seq "$RUNS"); do
    rm -f "$tmp/f.cnf"
    # shellcheck disable=SC2086
    read -r rc secs < <(wall timeout $((TIMEOUT + 1)) "$KS" encode --size "$n" $flag \
      --encoding successor -o "$tmp/f.cnf")
    case "$rc" in
      0) encodes="$encodes $secs" ;;
      124) printf '–\ttimeout\t\n'; return ;;
      *) printf '%s\t–\t\n' "$(broken "kissat ${n}x$n $kind: encode" "encode exit $rc")"; return ;;
    esac
    mb=$(echo "$(stat -c %s "$tmp/f.cnf") / 1048576" | bc -l)
    read -r rc secs < <(wall timeout $((TIMEOUT + 1)) "$kissat" -q "$tmp/f.cnf")
    case "$rc" in
      10) solves="$solves $secs" ;;
      124) printf 'timeout\t%s\t%s\n' "$(median_of "$encodes")" "$mb"; return ;;
      20) printf '%s\t%s\t%s\n' "$(broken "kissat ${n}x$n $kind" none)" "$(median_of "$encodes")" "$mb"; return ;;
      *) printf '%s\t%s\t%s\n' "$(broken "kissat ${n}x$n $kind" "exit $rc")" "$(median_of "$encodes")" "$mb"; return ;;
    esac
    mv "$tmp/out" "$tmp/kissat.out"
    if ! "$KS" decode --cnf "$tmp/f.cnf" "$tmp/kissat.out" --format moves > /dev/null 2> "$tmp/err"; then
      printf '%s\t%s\t%s\n' "$(broken "kissat ${n}x$n $kind: decode" "decode failed")" "$(median_of "$encodes")" "$mb"
      return
    fi
  done
  printf '%s\t%s\t%s\n' "$(median_of "$solves")" "$(median_of "$encodes")" "$mb"
}

is_number() { [[ "$1" =~ ^[0-9]+(\.[0-9]*)?$ ]]; }

# A token for the table: seconds as they are, a timeout as `> TIMEOUT s`.
shown() {
  case "$1" in
    timeout) echo "> $TIMEOUT s" ;;
    *) echo "$1" ;;
  esac
}

# CP-SAT's median over knightsat's (a timeout counts as TIMEOUT: a bound).
ratio() { # CPSAT SUCCESSOR
  local a=$1 b=$2
  if is_number "$a" && is_number "$b"; then
    printf "%.2f" "$(echo "$a / ($b + 0.0005)" | bc -l)"
  elif [ "$a" = timeout ] && is_number "$b"; then
    printf "> %.2f" "$(echo "$TIMEOUT / ($b + 0.0005)" | bc -l)"
  elif is_number "$a" && [ "$b" = timeout ]; then
    printf "< %.2f" "$(echo "$a / $TIMEOUT" | bc -l)"
  else
    echo "–"
  fi
}

# The command and the machine.
knobs="SIZES=\"$SIZES\" RUNS=$RUNS TIMEOUT=$TIMEOUT"
[ -n "$SKIP" ] && knobs="$knobs SKIP=\"$SKIP\""
[ "$KS" != "${CARGO_TARGET_DIR:-target}/release/knightsat" ] && knobs="$knobs KS=$KS"
[ "$CPSAT_WORKERS" != 1 ] && knobs="$knobs CPSAT_WORKERS=$CPSAT_WORKERS"
[ "$TI_MAX" != 30 ] && knobs="$knobs TI_MAX=$TI_MAX"
[ "$NO_BUILD" = 1 ] && knobs="$knobs NO_BUILD=1"
echo "Command: \`$knobs scripts/bench-successor.sh\`"
echo
echo "Machine: $(nproc) cores, $(grep -m 1 'model name' /proc/cpuinfo | sed 's/^[^:]*: *//'); $(date -u +%F)"
echo
versions="knightsat $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src Cargo.toml Cargo.lock 2> /dev/null || echo ' (uncommitted changes)')"
if ! skipped cpsat; then versions="$versions; OR-Tools $("$py" -c 'import ortools; print(ortools.__version__)')"; fi
if [ -n "$kissat" ]; then versions="$versions; kissat $("$kissat" --version)"; fi
if [ -n "$cadical_program" ]; then versions="$versions; CaDiCaL program $("$cadical_program" --version)"; fi
echo "Versions: $versions"

echo
echo "### Successor encoding against CP-SAT: median seconds to a tour of $RUNS run$([ "$RUNS" = 1 ] || echo s) (timeout $TIMEOUT s)"
echo
header="| board | kind |"
rule="| --- | --- |"
if ! skipped cpsat; then header="$header CP-SAT ($CPSAT_WORKERS worker$([ "$CPSAT_WORKERS" = 1 ] || echo s)) |"; rule="$rule ---: |"; fi
if ! skipped successor; then header="$header successor (in-process) |"; rule="$rule ---: |"; fi
if ! skipped cpsat && ! skipped successor; then header="$header ratio |"; rule="$rule ---: |"; fi
if ! skipped cadical; then header="$header successor, built-in CaDiCaL |"; rule="$rule ---: |"; fi
if ! skipped program; then header="$header successor, CaDiCaL program |"; rule="$rule ---: |"; fi
if ! skipped cadical && ! skipped program; then header="$header speed-up |"; rule="$rule ---: |"; fi
if ! skipped cuts; then header="$header successor, cuts alone |"; rule="$rule ---: |"; fi
if ! skipped time-indexed; then header="$header time-indexed |"; rule="$rule ---: |"; fi
if ! skipped kissat; then header="$header kissat on complete CNF (encode, CNF size) |"; rule="$rule ---: |"; fi
echo "$header"
echo "$rule"

for n in $SIZES; do
  for kind in open closed; do
    row="| ${n}x$n | $kind |"
    cp="" succ=""
    if ! skipped cpsat; then
      cp=$(cpsat_cell "$n" "$kind")
      row="$row $(shown "$cp") |"
    fi
    if ! skipped successor; then
      succ=$(solve_cell successor "$n" "$kind" --encoding successor)
      row="$row $(shown "$succ") |"
    fi
    if ! skipped cpsat && ! skipped successor; then row="$row $(ratio "$cp" "$succ") |"; fi
    built_in="" program=""
    if ! skipped cadical; then
      built_in=$(solve_cell cadical "$n" "$kind" --encoding successor --solver cadical)
      row="$row $(shown "$built_in") |"
    fi
    if ! skipped program; then
      program=$(solve_cell program "$n" "$kind" --encoding successor --solver "$cadical_program")
      row="$row $(shown "$program") |"
    fi
    if ! skipped cadical && ! skipped program; then row="$row $(ratio "$program" "$built_in") |"; fi
    if ! skipped cuts; then
      row="$row $(shown "$(solve_cell cuts "$n" "$kind" --encoding successor --no-patching)") |"
    fi
    if ! skipped time-indexed; then
      if [ "$n" -gt "$TI_MAX" ]; then
        row="$row – |"
      else
        row="$row $(shown "$(solve_cell time-indexed "$n" "$kind")") |"
      fi
    fi
    if ! skipped kissat; then
      IFS=$'\t' read -r solve encode mb < <(kissat_cell "$n" "$kind")
      size=""
      if [ -n "$mb" ]; then size=", $(printf %.1f "$mb") MB"; fi
      row="$row $(shown "$solve") ($(shown "$encode")$size) |"
    fi
    echo "$row"
  done
done

echo
echo "CP-SAT: OR-Tools' AddCircuit, num_workers $CPSAT_WORKERS, timed inside Python (model building and Solve)."
echo "knightsat and kissat: whole-process wall time. Ratio: CP-SAT / successor (> 1: knightsat is faster)."
echo "Speed-up: CaDiCaL's program / built-in CaDiCaL (> 1: the built-in one is faster)."
if [ -s "$tmp/notes" ]; then
  echo
  sed 's/^/Note: /' "$tmp/notes"
fi
if [ -e "$tmp/failed" ]; then
  say "some cells failed (see above)"
  exit 1
fi
