#!/usr/bin/env bash
# A change to the frontier counter against the commit before it, in one
# run: builds BASE (a git revision, default HEAD) in a worktree of its own
# and the working tree, then times each case with both binaries in turn,
# RUNS times (default 3), and prints a markdown table of medians (wall
# seconds, peak MiB by GNU time) with the ratio new / base.
#
#   scripts/bench-frontier-ab.sh                    # working tree against HEAD
#   BASE=281b94c RUNS=5 scripts/bench-frontier-ab.sh
#   CASES="7x8closed-J2 --board 7x8 --closed --start a1 --method frontier --jobs 2" scripts/bench-frontier-ab.sh
#
# CASES: one case a line, a label then the arguments of `knightsat count`.
# The builds go to target/ab-base and target/ab-new (release).
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=${BASE:-HEAD}
RUNS=${RUNS:-3}
CASES=${CASES:-"6x6open-J1 --size 6 --method frontier --jobs 1
6x6open-J2 --size 6 --method frontier --jobs 2
6x12closed-J2 --board 6x12 --closed --start a1 --method frontier --jobs 2
7x8closed-J2 --board 7x8 --closed --start a1 --method frontier --jobs 2"}

root=$(pwd)
tmp=$(mktemp -d)
cleanup() {
  git -C "$root" worktree remove --force "$tmp/base" 2> /dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

git worktree add --quiet --detach "$tmp/base" "$BASE"
(cd "$tmp/base" && CARGO_TARGET_DIR="$root/target/ab-base" cargo build --quiet --release)
CARGO_TARGET_DIR="$root/target/ab-new" cargo build --quiet --release
base_bin=$root/target/ab-base/release/knightsat
new_bin=$root/target/ab-new/release/knightsat

# Median of the numbers on standard input.
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "Command: \`BASE=$BASE RUNS=$RUNS scripts/bench-frontier-ab.sh\` (base $(git rev-parse --short "$BASE"))"
echo
echo "| case | base s | new s | new / base | base MiB | new MiB |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
while read -r label args; do
  [ -n "$label" ] || continue
  for _ in $(seq "$RUNS"); do
    for which in base new; do
      bin=$base_bin
      [ "$which" = new ] && bin=$new_bin
      # shellcheck disable=SC2086 # the case's arguments are words
      /usr/bin/time -f "%e %M" -o "$tmp/time" "$bin" count $args > /dev/null 2>&1
      cat "$tmp/time" >> "$tmp/times-$which"
    done
  done
  bs=$(cut -d' ' -f1 "$tmp/times-base" | median)
  ns=$(cut -d' ' -f1 "$tmp/times-new" | median)
  bm=$(cut -d' ' -f2 "$tmp/times-base" | median)
  nm=$(cut -d' ' -f2 "$tmp/times-new" | median)
  ratio=$(awk -v b="$bs" -v n="$ns" 'BEGIN { printf "%.2f", n / b }')
  echo "| $label | $bs | $ns | $ratio | $((bm / 1024)) | $((nm / 1024)) |"
  rm -f "$tmp/times-base" "$tmp/times-new"
done <<< "$CASES"
