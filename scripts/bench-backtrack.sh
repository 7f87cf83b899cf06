#!/usr/bin/env bash
# The counting figures of docs/cluster.md: backtracking's count of 6x6 open
# tours with --jobs 1 and --jobs 2, alternating (RUNS times each), then the
# 7x7 plan: a --sample of SAMPLE cubes at depth DEPTH, and a fixed range of
# cubes (RANGE), estimated from RANGE_SAMPLE of its cubes and then counted
# in full, the count compared with the estimate's interval. Prints one line per run with its wall time, CPU time and peak
# memory, and the load average, which matters on a shared machine.
#
#   RUNS=3 SAMPLE=2000 DEPTH=8 RANGE=70001-72000 RANGE_SAMPLE=200 \
#     scripts/bench-backtrack.sh
#
# Figures, not a test: nothing here passes or fails on time.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
sample=${SAMPLE:-2000}
depth=${DEPTH:-8}
range=${RANGE:-70001-72000}
range_sample=${RANGE_SAMPLE:-200}
cargo build --release --locked --quiet
knightsat=${CARGO_TARGET_DIR:-target}/release/knightsat
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
line() { echo "$(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg) | $*"; }
timed() {
  /usr/bin/time -f '%e s wall, %U s CPU, %M KB' -o "$out/time" "$@" > "$out/stdout"
  cat "$out/time"
}

for run in $(seq "$runs"); do
  for jobs in 1 2; do
    took=$(timed "$knightsat" count --size 6 --method backtrack --jobs "$jobs")
    line "6x6 open, --jobs $jobs, run $run: $(cat "$out/stdout") tours, $took"
  done
done

took=$(timed "$knightsat" count --size 7 --method backtrack --depth "$depth" \
  --sample "$sample" --seed 1 --jobs 2)
line "7x7 open, --depth $depth --sample $sample --seed 1 --jobs 2: $took"
sed 's/^/    /' "$out/stdout"

# The fixed range: first estimated from a sample of its own cubes, then
# counted in full; the count must lie within the estimate's interval. The
# default range lies among the cubes starting on c1, which no symmetry of
# the board keeps and which come before their images: each is the first of
# its class, so the range has no =K lines.
took=$(timed "$knightsat" count --size 7 --method backtrack --depth "$depth" \
  --cubes "$range" --sample "$range_sample" --seed 1 --jobs 2)
line "7x7 open, --depth $depth --cubes $range --sample $range_sample --seed 1 --jobs 2: $took"
sed 's/^/    /' "$out/stdout"
range_estimate=$(head -n 1 "$out/stdout")

took=$(timed "$knightsat" count --size 7 --method backtrack --depth "$depth" \
  --cubes "$range" --jobs 2)
cubes=$(wc -l < "$out/stdout")
sum=$("$knightsat" sum --cubes "$range" "$out/stdout")
line "7x7 open, --depth $depth --cubes $range --jobs 2: $cubes cubes, $sum tours, $took"
awk -v estimate="$range_estimate" -v sum="$sum" 'BEGIN {
  split(estimate, word, " ")
  total = word[2]; margin = word[4]
  printf "    the range estimated at %.0f ± %.0f tours, counted %d: %s\n", total, margin, sum,
    (sum >= total - margin && sum <= total + margin) ? "within the interval" : "OUTSIDE the interval"
}'
