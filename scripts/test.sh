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
# instead of the Linux-only calls; runtime/platform.rs), all but the
# in-process SAT sweeps, which never reach those calls; the Python
# package's tests (scripts/test-python.sh, in a virtual environment under
# target/).
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
# `rust_tests --portable` leaves out the in-process SAT sweeps against the
# oracle, the longest tests (about 100 s of the pass's 170): they write no
# file and start no process, so they never reach runtime::platform, whose
# fallbacks the second pass is for.
in_process_sweeps=(
  oracle::every_option_combination_agrees_with_the_oracle
  counting::counts_match_the_oracle
  shapes::boards_with_holes_agree_with_the_oracle
)
rust_tests() {
  local nextest_skip=() test_skip=()
  if [ "${1:-}" = --portable ]; then
    shift
    local sweep filter=""
    for sweep in "${in_process_sweeps[@]}"; do
      filter+="${filter:+ | }test(/^${sweep}/)"
      test_skip+=(--skip "$sweep")
    done
    nextest_skip=(-E "not ($filter)")
  fi
  if cargo nextest --version >/dev/null 2>&1; then
    cargo nextest run --locked --cargo-profile dev --no-fail-fast --workspace \
      --lib --bins --test integration "${nextest_skip[@]}" "$@"
  else
    cargo test --locked --profile dev --workspace --lib --bins --test integration "$@" \
      -- "${test_skip[@]}"
  fi
  cargo test --locked --profile dev --workspace --doc "$@"
  cargo test --locked --profile dev --workspace --test alone
}
step "the Rust tests"
rust_tests "$@"
step "the Rust tests again with the portable fallbacks forced (KNIGHTSAT_PORTABLE_FALLBACKS=1), but the in-process SAT sweeps"
KNIGHTSAT_PORTABLE_FALLBACKS=1 rust_tests --portable "$@"
step "the Python package's tests"
scripts/test-python.sh
step "done"
