#!/usr/bin/env python3
"""How often `count --sample`'s margin holds the true count.

Usage: scripts/sample-coverage.py KNIGHTSAT DEPTH SAMPLE SEEDS [SIZE TRUTH]

Runs `KNIGHTSAT count --size SIZE --method backtrack --depth DEPTH --sample
SAMPLE --seed S --jobs 1` for S = 1 … SEEDS and prints how many of the
intervals `estimate ± margin` hold TRUTH (default: 6x6 open, 6,637,920
tours), how many lines called their margin a 95% interval, and the mean
and median estimate. The table in docs/cluster.md ("How far a sample can
be trusted") was measured with it.
"""
import re
import subprocess
import sys


def main() -> int:
    if len(sys.argv) not in (5, 7):
        print(__doc__, file=sys.stderr)
        return 2
    knightsat, depth, sample, seeds = sys.argv[1:5]
    seeds = int(seeds)
    size, truth = (sys.argv[5], int(sys.argv[6])) if len(sys.argv) == 7 else ("6", 6637920)
    covered = below = called_95 = 0
    estimates = []
    for seed in range(1, seeds + 1):
        args = [knightsat, "count", "--size", size, "--method", "backtrack", "--depth", depth,
                "--sample", sample, "--seed", str(seed), "--jobs", "1"]
        line = subprocess.run(args, capture_output=True, text=True, check=True).stdout.splitlines()[0]
        estimate = float(line.split()[1])
        margin = float(re.search(r"± (\d+)", line).group(1))
        covered += estimate - margin <= truth <= estimate + margin
        below += estimate < truth
        called_95 += "(95%)" in line
        estimates.append(estimate)
    estimates.sort()
    print(f"{size}x{size} depth {depth}, {sample} cubes, {seeds} seeds: the interval holds {truth} "
          f"in {covered} ({100 * covered / seeds:.0f}%), called 95% in {called_95}; "
          f"mean estimate {sum(estimates) / seeds:.0f}, median {estimates[seeds // 2]:.0f}, "
          f"below the count {below}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
