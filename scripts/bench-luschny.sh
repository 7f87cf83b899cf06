#!/usr/bin/env bash
# Peter Luschny's public challenge (github PeterLuschny/
# Hamiltonian_Paths_On_Knight_Graphs; OEIS A390833 and A392000): the
# undirected Hamiltonian paths and cycles of the knight on every k x n
# board, 3 <= k <= n <= 12, k n <= 40, counted by `knightsat count` (open:
# 2 P directed; closed from a1: 2 C). Prints one line a board and count,
# then the whole wall time (the notes of boards without a tour dropped); BIN (default target/release/knightsat) is the
# binary timed, so two builds compare in one run:
#
#   scripts/bench-luschny.sh
#   BIN=target/ab-base/release/knightsat scripts/bench-luschny.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/knightsat}
start=$(date +%s.%N)
for k in $(seq 3 12); do
  for n in $(seq "$k" 12); do
    [ $((k * n)) -le 40 ] || continue
    echo "${k}x${n} paths $("$BIN" count --board "${k}x${n}" 2>/dev/null)"
    echo "${k}x${n} cycles $("$BIN" count --board "${k}x${n}" --closed --start a1 2>/dev/null)"
  done
done
end=$(date +%s.%N)
awk -v a="$start" -v b="$end" 'BEGIN { printf "whole: %.2f s\n", b - a }'
