#!/usr/bin/env bash
# A change against the commit before it, in one run: builds BASE (a git
# revision, default HEAD) in a worktree of its own and the working tree,
# then times each case with both binaries in turn, RUNS times (default 3),
# and prints a markdown table of medians (wall seconds, peak MiB by GNU
# time) with the ratio new / base.
#
#   scripts/bench-ab.sh                    # working tree against HEAD
#   BASE=281b94c RUNS=5 scripts/bench-ab.sh
#   CASES="7x8closed-J2 count --board 7x8 --closed --start a1 --method frontier --jobs 2" scripts/bench-ab.sh
#   CASES="$(scripts/bench-ab.sh --default-route)" scripts/bench-ab.sh
#
# CASES: one case a line, a label then the arguments of `knightsat` (the
# command first). The default cases are the frontier counter's;
# `--default-route` prints the default route's (`solve --size N` with no
# other flag). The base's worktree is target/ab-worktree (one fixed path,
# so a second run reuses its build); the builds go to target/ab-base and
# target/ab-new (release).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --default-route ]; then
  for n in 8 20 50 200 1000 2000; do
    echo "solve-${n}-open solve --size $n"
    echo "solve-${n}-closed solve --size $n --closed"
  done
  exit 0
fi

BASE=${BASE:-HEAD}
RUNS=${RUNS:-3}
CASES=${CASES:-"6x6open-J1 count --size 6 --method frontier --jobs 1
6x6open-J2 count --size 6 --method frontier --jobs 2
6x12closed-J2 count --board 6x12 --closed --start a1 --method frontier --jobs 2
7x8closed-J2 count --board 7x8 --closed --start a1 --method frontier --jobs 2"}

root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

worktree=$root/target/ab-worktree
if [ -d "$worktree" ]; then
  git -C "$worktree" checkout --quiet --detach "$BASE"
else
  git worktree add --quiet --detach "$worktree" "$BASE"
fi
(cd "$worktree" && CARGO_TARGET_DIR="$root/target/ab-base" cargo build --quiet --release --bin knightsat)
CARGO_TARGET_DIR="$root/target/ab-new" cargo build --quiet --release --bin knightsat
base_bin=$root/target/ab-base/release/knightsat
new_bin=$root/target/ab-new/release/knightsat

# Median of the numbers on standard input.
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "Command: \`BASE=$BASE RUNS=$RUNS scripts/bench-ab.sh\` (base $(git rev-parse --short "$BASE"))"
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
      /usr/bin/time -f "%e %M" -o "$tmp/time" "$bin" $args > /dev/null 2>&1
      cat "$tmp/time" >> "$tmp/times-$which"
    done
  done
  bs=$(cut -d' ' -f1 "$tmp/times-base" | median)
  ns=$(cut -d' ' -f1 "$tmp/times-new" | median)
  bm=$(cut -d' ' -f2 "$tmp/times-base" | median)
  nm=$(cut -d' ' -f2 "$tmp/times-new" | median)
  ratio=$(awk -v b="$bs" -v n="$ns" 'BEGIN { if (b > 0) printf "%.2f", n / b; else printf "–" }')
  echo "| $label | $bs | $ns | $ratio | $((bm / 1024)) | $((nm / 1024)) |"
  rm -f "$tmp/times-base" "$tmp/times-new"
done <<< "$CASES"
