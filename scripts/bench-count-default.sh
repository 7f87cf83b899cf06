#!/usr/bin/env bash
# `count` with no --jobs (one thread per core where the route splits its
# work) against `--jobs 1` and `--jobs 2`, in the same run, alternating:
# the medians of RUNS runs each, whole process (wall clock), release build.
# Prints a markdown table with the ratio of --jobs 1 to the default.
#
#   scripts/bench-count-default.sh                 # count --size 6, count --size 7
#   CASES="--size 8 --closed --start a1" RUNS=1 scripts/bench-count-default.sh
#
# CASES: the count arguments, one case per line (default: "--size 6" and
# "--size 7"); RUNS: runs of each (default 3).
set -euo pipefail
cd "$(dirname "$0")/.."

CASES=${CASES:-$'--size 6\n--size 7'}
RUNS=${RUNS:-3}

cargo build --quiet --release
ks=${CARGO_TARGET_DIR:-target}/release/knightsat

# The seconds `count ARGS` takes, wall clock, and the count it printed.
timed() {
  local start end out
  start=$(date +%s.%N)
  out=$("$ks" count "$@" 2> /dev/null)
  end=$(date +%s.%N)
  echo "$(echo "$end - $start" | bc -l) $out"
}

# Checks a `timed` line's count against the first one's.
check() {
  if [ -z "$tours" ]; then
    tours=${1#* }
  elif [ "${1#* }" != "$tours" ]; then
    echo "bench-count-default: count $case printed ${1#* }, not $tours" >&2
    exit 1
  fi
}

median() { sort -g | awk '{ v[NR] = $1 } END { printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "Command: \`CASES=\"$CASES\" RUNS=$RUNS scripts/bench-count-default.sh\` ($(nproc) cores)"
echo
echo "| count | tours | default (s) | --jobs 1 (s) | --jobs 2 (s) | --jobs 1 / default |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
while IFS= read -r case; do
  [ -n "$case" ] || continue
  # shellcheck disable=SC2086 # the case is words of arguments
  set -- $case
  tours=""
  default=() one=() two=()
  for _ in $(seq "$RUNS"); do
    line=$(timed "$@") && check "$line" && default+=("${line%% *}")
    line=$(timed "$@" --jobs 1) && check "$line" && one+=("${line%% *}")
    line=$(timed "$@" --jobs 2) && check "$line" && two+=("${line%% *}")
  done
  d=$(printf '%s\n' "${default[@]}" | median)
  o=$(printf '%s\n' "${one[@]}" | median)
  t=$(printf '%s\n' "${two[@]}" | median)
  echo "| \`count $case\` | $tours | $d | $o | $t | $(echo "$o / $d" | bc -l | xargs printf '%.2f') |"
done <<< "$CASES"
