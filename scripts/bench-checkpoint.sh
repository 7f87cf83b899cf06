#!/usr/bin/env bash
# What a checkpoint costs and saves, in one run, release build: `count
# ARGS` uninterrupted, the same with `--checkpoint DIR`, and the same with
# the checkpoint killed outright (SIGKILL) at FRACTION of the uninterrupted
# run's time and then run again to its end. Prints each time, the counts
# (which must agree), the checkpoint's -v lines, and the ratio of the
# killed run and the run that went on, together, to the uninterrupted one.
#
#   scripts/bench-checkpoint.sh                        # count --board 8x7
#   ARGS="--size 7" FRACTION=0.75 scripts/bench-checkpoint.sh
#
# ARGS: the count's arguments (default "--board 8x7"); FRACTION: when the
# kill comes (default 0.5); DIR: the checkpoint (default a new temporary
# directory, removed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."

ARGS=${ARGS:---board 8x7}
FRACTION=${FRACTION:-0.5}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-checkpoint.XXXXXX")
DIR=${DIR:-$work/checkpoint}
child=
cleanup() {
  [ -n "$child" ] && kill -KILL "$child" 2> /dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

cargo build --quiet --release
ks=${CARGO_TARGET_DIR:-target}/release/knightsat
read -r -a args <<< "$ARGS"

now() { date +%s.%N; }
since() { echo "$(now) - $1" | bc -l; }

start=$(now)
plain_count=$("$ks" count "${args[@]}")
plain=$(since "$start")
echo "uninterrupted: $plain s, $plain_count"

start=$(now)
kept_count=$("$ks" count "${args[@]}" -v --checkpoint "$DIR" 2> "$work/kept.err")
kept=$(since "$start")
echo "with --checkpoint: $kept s, $kept_count"
grep '^checkpoint:' "$work/kept.err" || true

start=$(now)
"$ks" count "${args[@]}" -v --checkpoint "$DIR" > /dev/null 2> "$work/killed.err" &
child=$!
sleep "$(echo "$plain * $FRACTION" | bc -l)"
kill -KILL "$child"
wait "$child" 2> /dev/null || true
child=
killed=$(since "$start")
echo "killed after $killed s, leaving: $(ls "$DIR" 2> /dev/null | tr '\n' ' ')"

start=$(now)
again_count=$("$ks" count "${args[@]}" -v --checkpoint "$DIR" 2> "$work/again.err")
again=$(since "$start")
echo "gone on: $again s, $again_count"
grep '^checkpoint:' "$work/again.err" || true

for count in "$kept_count" "$again_count"; do
  [ "$count" = "$plain_count" ] || { echo "bench-checkpoint: counts differ: $count, $plain_count" >&2; exit 1; }
done
[ ! -e "$DIR" ] || { echo "bench-checkpoint: the finished count left $DIR" >&2; exit 1; }
printf 'checkpoint cost: %.3f; killed and gone on against uninterrupted: %.3f\n' \
  "$(echo "$kept / $plain" | bc -l)" "$(echo "($killed + $again) / $plain" | bc -l)"
