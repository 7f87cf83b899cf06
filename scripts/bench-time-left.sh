#!/usr/bin/env bash
# How good a frontier count's estimate of the time left is
# (docs/benchmarks.md, "Time left"): runs `knightsat count ARGS -v
# --time-left-every 1`, stamps each estimate -v says with the time it came,
# and prints the estimate at a quarter, half and three quarters of the run
# (the last one said before then, less the time since) against the time
# the run then took, with their ratio.
#
# Usage: scripts/bench-time-left.sh --board 8x7
#        (KNIGHTSAT=path/to/knightsat to time another build; release by default)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${KNIGHTSAT:-target/release/knightsat}
if [ -z "${KNIGHTSAT:-}" ]; then
  cargo build --release --quiet
fi
python3 - "$bin" "$@" <<'PY'
import re, subprocess, sys, time

bin, args = sys.argv[1], sys.argv[2:]
command = [bin, "count", *args, "-v", "--time-left-every", "1"]
start = time.monotonic()
said = []
run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
for line in run.stderr:
    found = re.search(r"about (.+?) left", line)
    if not found:
        continue
    words, seconds = found.group(1), 0
    for value, unit in re.findall(r"(\d+) (h|min|s)\b", words):
        seconds += int(value) * {"h": 3600, "min": 60, "s": 1}[unit]
    said.append((time.monotonic() - start, seconds))
count = run.stdout.read().strip()
if run.wait() != 0:
    sys.exit(f"bench-time-left: {' '.join(command)} failed")
end = time.monotonic() - start
print(f"{' '.join(command)}: {count} in {end:.1f} s")
for share in (0.25, 0.5, 0.75):
    at = end * share
    before = [(t, left) for t, left in said if t <= at]
    if not before:
        print(f"at {share}: no estimate yet")
        continue
    t, left = before[-1]
    estimate = max(0.0, left - (at - t))
    truth = end - at
    print(f"at {share}: {at:.1f} s in, estimate {estimate:.1f} s left, true {truth:.1f} s, ratio {estimate / truth:.2f}")
PY
