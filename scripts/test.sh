#!/usr/bin/env bash
# The project's test command: what the README tells a newcomer and what CI runs.
#
# First it installs, where missing, what the tests drive (it says so
# before it starts): with apt, a C++ compiler and the solver programs
# minisat, cadical and picosat, chromium, GNU parallel, openssh-server,
# slurm-wlm, munge and iproute2; kissat with pip; the DRAT checker rate
# with cargo (scripts/install-solvers.sh). `--no-install` installs nothing:
# the tests that need a missing program are then reported as ignored
# (under CI=true nothing may be missing, and --no-install is refused).
#
# Then: formatting, lints and module structure; the Rust tests (with
# cargo-nextest where it is installed, which runs the unit and integration
# tests side by side, else cargo test); the Rust tests again with the
# library's portable fallbacks forced (KNIGHTSAT_PORTABLE_FALLBACKS=1,
# which a test build honours: what macOS and the other Unix systems run
# instead of the Linux-only calls; runtime/platform.rs), those the first
# run saw reach those calls (no other test can); the Python
# package's tests (scripts/test-python.sh, in a virtual environment under
# target/, made from PyPI in the background from the start). Each run in
# the background prints its time.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's time on stderr, for whoever keeps CI within its minutes.
step() { echo "test: [$SECONDS s] $*" >&2; }
install=true
if [ "${1:-}" = --no-install ]; then
  install=false
  shift
fi
if ! $install; then
  if [ "${CI:-}" = true ]; then
    echo "test: --no-install is not for CI, which runs every test" >&2
    exit 2
  fi
  echo "test: --no-install: nothing is installed; tests needing a missing program are reported as ignored" >&2
else
  echo "test: installing what is missing of: g++, minisat, cadical, picosat, chromium, parallel, openssh-server, slurm-wlm, munge, iproute2 (apt); kissat (pip); rate (cargo). scripts/test.sh --no-install skips this." >&2
  if ! scripts/install-solvers.sh; then
    if [ "${CI:-}" = true ]; then
      echo "test: the solvers could not be installed" >&2
      exit 1
    fi
    echo "test: some solvers could not be installed; their tests will be reported as ignored" >&2
  fi
fi
# beside NAME COMMAND...: runs COMMAND in the background with its output in
# a log of its own; `side_by_side_results` waits for each started since
# the last, prints its log and its time, and fails if one failed.
logs=$(mktemp -d "${TMPDIR:-/tmp}/knightsat-test.XXXXXX")
beside_names=()
beside_pids=()
beside_logs=0
# Each in a process group of its own, ended whole if this script is.
end_beside() {
  local pid
  for pid in "${beside_pids[@]}"; do
    kill -TERM -- "-$pid" 2>/dev/null || true
  done
  rm -rf "$logs"
}
trap end_beside EXIT
beside() {
  local name=$1
  shift
  set -m
  (
    SECONDS=0
    status=0
    "$@" || status=$?
    echo "test: ($name took $SECONDS s)"
    exit "$status"
  ) >"$logs/$beside_logs" 2>&1 &
  set +m
  beside_names+=("$name")
  beside_pids+=($!)
  beside_logs=$((beside_logs + 1))
}
side_by_side_results() {
  local i failed=() first=$((beside_logs - ${#beside_pids[@]}))
  for i in "${!beside_pids[@]}"; do
    local status=0
    wait "${beside_pids[i]}" || status=$?
    echo "test: ---- ${beside_names[i]} (exit $status) ----" >&2
    cat "$logs/$((first + i))" >&2
    [ "$status" -eq 0 ] || failed+=("${beside_names[i]}")
  done
  beside_names=()
  beside_pids=()
  if [ ${#failed[@]} -gt 0 ]; then
    echo "test: failed: ${failed[*]}" >&2
    exit 1
  fi
}
# The Python package's environments are made from PyPI while the Rust code
# compiles (pip waits mostly on the network and the disk); its tests run
# at the end, side by side with others.
beside "the Python package's environments" scripts/test-python.sh --prepare
# A fresh clone has nothing for incremental compilation to reuse: under CI
# it only costs time.
if [ "${CI:-}" = true ]; then
  export CARGO_INCREMENTAL=0
fi
step "format, lints, module structure"
cargo fmt --check
# Over the workspace, so that the library's unit tests are linted too.
# Everything here is built in the dev profile (cargo test's own profile,
# `test`, is the dev profile under another name, and cargo would compile
# every dependency, CaDiCaL's C++ among them, once for each name): the
# lint, the tests and the Python package then share one compilation of
# the dependencies (with their debug info off; see Cargo.toml).
cargo clippy --locked --workspace --all-targets -- -D warnings
python3 scripts/module-cycles.py
# The Rust tests of the workspace. Every cargo command here selects the
# whole workspace, Python's crate included (it has no Rust tests; maturin
# builds it in scripts/test-python.sh): cargo unifies the dependencies'
# features over the packages a command selects, and one selection gives
# one build of the library that every step reuses. The tests that measure
# a whole process run alone, after the rest (tests/alone).
# The first pass records in $callers each test that reaches a call of
# runtime::platform (a file named for the test, which a test build leaves
# where KNIGHTSAT_FALLBACK_CALLERS says, by nextest's name for the test);
# `rust_tests --portable` runs exactly those again with the fallbacks
# forced, since no other test can reach a fallback. Without cargo-nextest
# (no test names) it runs every test again.
rust_tests() {
  local portable=false nextest_only=()
  if [ "${1:-}" = --portable ]; then
    shift
    portable=true
    local test filter=""
    for test in "$callers"/*; do
      [ -e "$test" ] || continue
      filter+="${filter:+ | }test(=$(basename "$test"))"
    done
    if $nextest && [ -z "$filter" ]; then
      echo "test: no test reached a call with a portable fallback" >&2
      return 0
    fi
    nextest_only=(-E "$filter")
  fi
  # `|| return`: called where a failure does not end the script (beside
  # runs it under `||`, which turns `set -e` off inside), the function's
  # status would otherwise be its last command's, and a failed run of the
  # tests would pass unseen.
  if $nextest; then
    cargo nextest run --locked --cargo-profile dev --no-fail-fast --workspace \
      --lib --bins --test integration "${nextest_only[@]}" "$@" || return
  else
    cargo test --locked --profile dev --workspace --lib --bins --test integration "$@" || return
  fi
  if ! $portable; then
    cargo test --locked --profile dev --workspace --doc "$@" || return
  fi
}
nextest=false
if cargo nextest --version >/dev/null 2>&1; then
  nextest=true
fi
callers="$logs/fallback-callers"
mkdir "$callers"
step "the Rust tests"
KNIGHTSAT_FALLBACK_CALLERS="$callers" rust_tests "$@"
echo "test: $(find "$callers" -type f | wc -l) tests reached a call with a portable fallback" >&2
cargo test --locked --profile dev --workspace --test alone --no-run
side_by_side_results
# Three runs side by side, since none of them keeps both cores busy alone
# (tests/alone runs one process at a time, pytest one test at a time): the
# Rust tests that reached a call with a portable fallback again with the
# fallbacks forced, tests/alone (which measures its own threads and CPU
# time and its children's peak memory, none of which another process
# changes), and the Python package's tests. In fresh-clone CI runs they
# took 134 s one after another (55 + 29 + 50) and 86 s side by side.
step "side by side: the Rust tests that reached a call with a portable fallback again with it forced (KNIGHTSAT_PORTABLE_FALLBACKS=1); tests/alone; the Python package's tests"
portable_pass() { KNIGHTSAT_PORTABLE_FALLBACKS=1 rust_tests --portable "$@"; }
beside "portable fallbacks" portable_pass "$@"
beside "tests/alone" cargo test --locked --profile dev --workspace --test alone
beside "the Python package" scripts/test-python.sh --prepared
side_by_side_results
step "done"
