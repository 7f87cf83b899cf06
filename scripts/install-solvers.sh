#!/usr/bin/env bash
# Installs what building knightsat needs beyond Rust: a C++ compiler (Debian's
# g++), with which the cadical-sys crate compiles the CaDiCaL it links in (no
# libclang: its bindings are written by hand with cxx). Then the real SAT
# solver programs the tests drive: minisat, cadical and picosat
# from Debian's packages (and GNU parallel, openssh-server, slurm-wlm and
# munge, for the cluster recipes' tests),
# kissat 4 from the PyPI wheel passagemath-kissat, which carries a kissat
# binary, and the DRAT proof checker rate from
# crates.io (into cargo's bin directory); and chromium from Debian, which a
# test uses to render the SVG pictures. Idempotent; quiet when everything is
# there.
#
# kissat goes to $KNIGHTSAT_TOOLS (default /opt/knightsat-tools as root,
# ~/.local/share/knightsat-tools otherwise) and is linked into /usr/local/bin
# (as root) or ~/.local/bin, so that every solver is found on PATH.
set -euo pipefail

say() { echo "install-solvers: $*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
  tools=${KNIGHTSAT_TOOLS:-/opt/knightsat-tools}
  bin=/usr/local/bin
else
  sudo=(sudo)
  tools=${KNIGHTSAT_TOOLS:-$HOME/.local/share/knightsat-tools}
  bin=$HOME/.local/bin
fi

missing=()
command -v g++ > /dev/null || missing+=(g++)
for package in minisat cadical picosat chromium; do
  command -v "$package" > /dev/null || missing+=("$package")
done
# moreutils has a `parallel` too; the tests need GNU's (Debian's package
# replaces moreutils' program).
parallel --version 2> /dev/null | grep -q 'GNU parallel' || missing+=(parallel)
# The cluster recipes' tests (scripts/ssh-run.sh, scripts/slurm-run.sh): an
# ssh server and client, and a one-node Slurm with MUNGE.
[ -x /usr/sbin/sshd ] || missing+=(openssh-server)
command -v ssh-keygen > /dev/null && command -v ssh > /dev/null || missing+=(openssh-client)
[ -x /usr/sbin/slurmctld ] && [ -x /usr/sbin/slurmd ] || missing+=(slurm-wlm)
[ -x /usr/sbin/munged ] || missing+=(munge)
command -v ss > /dev/null || missing+=(iproute2)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]} from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq > /dev/null || fail "apt-get update"
  "${sudo[@]}" apt-get install -y -qq "${missing[@]}" > /dev/null || fail "apt-get install ${missing[*]}"
fi

kissat_ok() { command -v kissat > /dev/null && [[ "$(kissat --version 2>/dev/null)" == 4.* ]]; }
if ! kissat_ok; then
  say "installing kissat 4 from the PyPI wheel passagemath-kissat into $tools"
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --upgrade \
    --target "$tools/passagemath-kissat" passagemath-kissat || fail "pip install passagemath-kissat"
  binary="$tools/passagemath-kissat/sage_wheels/bin/kissat"
  [ -x "$binary" ] || fail "the wheel has no $binary"
  mkdir -p "$bin"
  ln -sf "$binary" "$bin/kissat"
  hash -r
  kissat_ok || fail "kissat is at $bin/kissat, but $bin is not on PATH (add it)"
fi

if ! command -v rate > /dev/null; then
  say "installing the DRAT checker rate from crates.io (a few minutes on 2 cores)"
  cargo install --quiet --locked rate@0.3.0 || fail "cargo install rate"
  command -v rate > /dev/null || fail "rate is installed, but cargo's bin directory is not on PATH"
fi

for solver in minisat cadical picosat chromium kissat rate; do
  command -v "$solver" > /dev/null || fail "$solver is still missing"
done
