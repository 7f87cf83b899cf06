#!/usr/bin/env bash
# The frontier counter against the published counts: for each board of the
# sequences in fixtures/oeis (closed tours on 6 x n, 8 x n and 7 x 2n:
# undirected cycles C, which `count --start a1` counts twice), runs
# `knightsat count --board RxC --closed --start a1 --method frontier` once,
# checks the count against 2C and prints a markdown table of seconds and
# peak memory (GNU time). Release build.
#
#   scripts/bench-count.sh                          # 6x5 to 6x12, 8x5, 8x6, 7x6
#   BOARDS="6x14 6x16" TIMEOUT=1800 scripts/bench-count.sh
#
# BOARDS: the boards (default "6x5 6x6 6x7 6x8 6x9 6x10 6x11 6x12 8x5 8x6
# 7x6"); TIMEOUT: seconds per board (default 600); JOBS: --jobs (default 1);
# ORDER: --frontier-order, rows (default) or snake. A board no fixture
# lists is counted all the same, its row saying so.
# The binary is the release build in $CARGO_TARGET_DIR (default target/).
# Exit status 1 when a count differs from the published one.
set -euo pipefail
cd "$(dirname "$0")/.."

BOARDS=${BOARDS:-"6x5 6x6 6x7 6x8 6x9 6x10 6x11 6x12 8x5 8x6 7x6"}
TIMEOUT=${TIMEOUT:-600}
JOBS=${JOBS:-1}
ORDER=${ORDER:-rows}

cargo build --quiet --release
ks=${CARGO_TARGET_DIR:-target}/release/knightsat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The published C for board RxC, from whichever fixture lists it.
published() {
  awk -F'\t' -v b="$1" '!/^#/ && $1 == b { print $2; exit }' fixtures/oeis/A175881.txt \
    fixtures/oeis/A193055.txt fixtures/oeis/A193054.txt
}

echo "Command: \`BOARDS=\"$BOARDS\" TIMEOUT=$TIMEOUT JOBS=$JOBS ORDER=$ORDER scripts/bench-count.sh\`"
echo
echo "| board | published C | count from a1 | agrees | seconds | peak MiB |"
echo "| --- | ---: | ---: | --- | ---: | ---: |"
status=0
for board in $BOARDS; do
  c=$(published "$board")
  rc=0
  /usr/bin/time -f "%e %M" -o "$tmp/time" timeout "$TIMEOUT" "$ks" count --board "$board" --closed \
    --start a1 --method frontier --frontier-order "$ORDER" --jobs "$JOBS" --memory-budget 16000 > "$tmp/out" 2> /dev/null || rc=$?
  if [ "$rc" = 124 ]; then
    echo "| $board | ${c:-(none)} | > $TIMEOUT s | | | |"
    continue
  fi
  got=$(cat "$tmp/out")
  if [ -n "$c" ]; then
    want=$(python3 -c "print(2 * $c)")
    agrees=yes
    [ "$got" = "$want" ] || { agrees="NO (exit $rc)"; status=1; }
  else
    c="(not in fixtures/oeis)"
    agrees="-"
    [ "$rc" = 0 ] || { agrees="exit $rc"; status=1; }
  fi
  read -r seconds kib < <(tail -n 1 "$tmp/time")
  echo "| $board | $c | $got | $agrees | $seconds | $((kib / 1024)) |"
done
exit $status
