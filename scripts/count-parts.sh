#!/usr/bin/env bash
# Counts the parts of a frontier count one after another on this machine,
# in as many runs as it takes (issue 60: every open 8x8 tour, 136 parts
# split by their ends; docs/notebook.md, "The 136 classes, one run after
# another"). Resumable: a part whose file exists is skipped, a part's file
# appears only once the part has finished, and copies started side by side
# share the work (each claims a part by making part-K.lock, a directory).
#
#   DIR=/work/parts-8x8 scripts/count-parts.sh target/release/knightsat --size 8
#   N=136 SPLIT=ends scripts/count-parts.sh BIN BOARD-ARGS...
#
# Then `cat DIR/part-*.txt | knightsat sum` once every part is there.
# Each part's time and peak memory go to DIR/times.txt, its -v lines to
# DIR/part-K.txt.log. A copy stopped by Ctrl-C or kill removes its part's
# unfinished output, log and lock; after a kill -9 or a crash, remove
# DIR/part-*.lock before starting again.
#
# DIR    where the parts go (default parts)
# N      how many parts (default 136)
# SPLIT  --part-by: ends or states (default ends)
# JOBS   threads a part (default 1: run one copy a core instead)
# MEMORY --memory-budget of a part in MiB (default: knightsat's, what the
#        machine has room for as the part starts; copies started side by
#        side each see that room, so give each its share); a part past it
#        spills to disk and slows down (a corner 8x8 part holds 3 GB, a1-h1
#        more)
#
# Parts run at nice 19, each in a session and so a scheduling group
# (autogroup) of its own, lowered to 19 too: nice alone does not lower a
# process against other sessions.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: scripts/count-parts.sh KNIGHTSAT BOARD-ARGS... (see the comments)" >&2
  exit 2
fi
bin=$(realpath "$1")
shift
dir=${DIR:-parts}
parts=${N:-136}
mkdir -p "$dir"
cd "$dir"
# Each part runs in a session of its own, so that a stop ends its whole
# process group at once (the shell would otherwise wait for the part to
# finish before its trap runs), and so that its scheduling group can be
# lowered without lowering the caller's. A part stopped half-way leaves
# neither its unfinished output, its log nor its claim.
current= child= failed=0
stop() {
  if [ -n "$child" ]; then
    kill -TERM -- "-$child" 2>/dev/null || true
    wait "$child" 2>/dev/null || true
  fi
  [ -n "$current" ] && rm -rf "$current.tmp" "$current.log" "${current%.txt}.lock"
  exit 130
}
trap stop INT TERM HUP
for k in $(seq 1 "$parts"); do
  out=part-$k.txt
  [ -s "$out" ] && continue
  mkdir "part-$k.lock" 2>/dev/null || continue
  current=$out
  setsid bash -c 'echo 19 > /proc/self/autogroup 2>/dev/null; exec "$@"' lowered \
    /usr/bin/time -f "%e s %M KB" nice -n 19 "$bin" count "$@" --part "$k/$parts" \
    --part-by "${SPLIT:-ends}" --jobs "${JOBS:-1}" ${MEMORY:+--memory-budget "$MEMORY"} -v \
    > "$out.tmp" 2> "$out.log" &
  child=$!
  if wait "$child"; then
    mv "$out.tmp" "$out"
    echo "$k $(tail -1 "$out.log") $(date -u +%FT%TZ)" >> times.txt
  else
    echo "part $k failed: see $out.log" | tee -a times.txt >&2
    failed=1
    rm -f "$out.tmp"
  fi
  child=
  rmdir "part-$k.lock"
  current=
done
# Some part failed: the others went on, and its file is missing.
exit "$failed"
