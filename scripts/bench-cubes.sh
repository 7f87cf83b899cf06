#!/usr/bin/env bash
# Benchmarks counting by cubes (docs/cubes.md, Figures), release build:
#
# 1. `count --size 6 --closed --start a1` (19,724 tours) on one and on two
#    threads, the same cubes (--depth 6), alternating, RUNS runs each: median
#    wall times, the ratio jobs 2 / jobs 1 and tours/s per core.
# 2. Tours/s against cube depth for the same count (whole counts, one thread).
# 3. Tours/s against cube depth for 6x6 open, no start (6,637,920 tours), on a
#    random sample of cubes (`count --sample`, two threads), with the
#    projected time of the whole count on 2 and on 100 cores.
#
#   scripts/bench-cubes.sh
#   RUNS=5 PARTS="1" scripts/bench-cubes.sh
#
# RUNS: runs per cell in part 1 (default 3). PARTS: which parts (default
# "1 2 3"). CLOSED_DEPTHS (default "4 5 6 7 8"), OPEN_SAMPLES (default
# "5:100 6:800 7:3000 8:10000", depth:cubes sampled). KS: the binary (default
# target/release/knightsat, built first unless NO_BUILD=1).
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
PARTS=${PARTS:-"1 2 3"}
CLOSED_DEPTHS=${CLOSED_DEPTHS:-"4 5 6 7 8"}
OPEN_SAMPLES=${OPEN_SAMPLES:-"5:100 6:800 7:3000 8:10000"}
KS=${KS:-${CARGO_TARGET_DIR:-target}/release/knightsat}
if [[ -z "${NO_BUILD:-}" ]]; then
  cargo build --release --quiet
fi

echo "# $(uname -m), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# Wall seconds of one run; the count it printed must be $1.
timed_count() {
  local expected=$1
  shift
  local out start end
  start=$(date +%s.%N)
  out=$("$KS" count "$@")
  end=$(date +%s.%N)
  if [[ "$out" != "$expected" ]]; then
    echo "knightsat count $* printed $out, not $expected" >&2
    exit 1
  fi
  echo "$end - $start" | bc -l
}

CLOSED=(--size 6 --closed --start a1)
CLOSED_TOURS=19724

if [[ " $PARTS " == *" 1 "* ]]; then
  echo
  echo "## 1. count ${CLOSED[*]} --depth 6, --jobs 1 against --jobs 2 ($RUNS runs each, alternating)"
  declare -A times=([1]="" [2]="")
  for _ in $(seq "$RUNS"); do
    for jobs in 1 2; do
      times[$jobs]+="$(timed_count $CLOSED_TOURS "${CLOSED[@]}" --depth 6 --jobs $jobs) "
    done
  done
  echo
  echo "| | median wall time | runs | tours/s per core |"
  echo "| --- | --- | --- | --- |"
  declare -A med
  for jobs in 1 2; do
    med[$jobs]=$(tr ' ' '\n' <<<"${times[$jobs]}" | grep . | median)
    runs=$(tr ' ' '\n' <<<"${times[$jobs]}" | grep . | xargs printf '%.2f, ' | sed 's/, $//')
    rate=$(echo "$CLOSED_TOURS / ${med[$jobs]} / $jobs" | bc -l)
    printf '| `--jobs %s` | %.2f s | %s | %.0f |\n' "$jobs" "${med[$jobs]}" "$runs" "$rate"
  done
  printf '\njobs 2 / jobs 1 = %.3f\n' "$(echo "${med[2]} / ${med[1]}" | bc -l)"
fi

if [[ " $PARTS " == *" 2 "* ]]; then
  echo
  echo "## 2. count ${CLOSED[*]} --jobs 1 against cube depth (one run each)"
  echo
  echo "| depth | cubes | wall time | tours/s |"
  echo "| --- | --- | --- | --- |"
  for depth in $CLOSED_DEPTHS; do
    cubes=$("$KS" count "${CLOSED[@]}" --depth "$depth" --sample 1 | sed -n 's/.* of \([0-9]*\) cubes.*/\1/p')
    seconds=$(timed_count $CLOSED_TOURS "${CLOSED[@]}" --depth "$depth" --jobs 1)
    printf '| %s | %s | %.2f s | %.0f |\n' "$depth" "$cubes" "$seconds" "$(echo "$CLOSED_TOURS / $seconds" | bc -l)"
  done
fi

if [[ " $PARTS " == *" 3 "* ]]; then
  echo
  echo "## 3. count --size 6 (open, no start) --sample K --jobs 2 against cube depth"
  echo
  echo "| depth | cubes | sampled | tours in sample | solving time | tours/s per core | estimated count | projected: 2 cores | 100 cores |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  for cell in $OPEN_SAMPLES; do
    depth=${cell%%:*}
    sample=${cell##*:}
    out=$("$KS" count --size 6 --depth "$depth" --sample "$sample" --jobs 2)
    # estimate: T ± M tours (95%), from K of C cubes at depth D (S tours in the sample)
    read -r tours margin sampled cubes in_sample < <(sed -n \
      's/^estimate: \([0-9]*\) ± \([0-9]*\) tours (95%), from \([0-9]*\) of \([0-9]*\) cubes at depth [0-9]* (\([0-9]*\) tours in the sample)$/\1 \2 \3 \4 \5/p' <<<"$out")
    solving=$(sed -n 's/^time: the sample took \([0-9.]*\) s.*/\1/p' <<<"$out")
    rate=$(echo "$in_sample / $solving" | bc -l)
    all=$(echo "$solving * $cubes / $sampled" | bc -l)
    printf '| %s | %s | %s | %s | %.1f s | %.0f | %s ± %s | %.0f min | %.1f min |\n' \
      "$depth" "$cubes" "$sampled" "$in_sample" "$solving" "$rate" "$tours" "$margin" \
      "$(echo "$all / 2 / 60" | bc -l)" "$(echo "$all / 100 / 60" | bc -l)"
  done
fi
