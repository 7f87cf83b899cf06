#!/usr/bin/env bash
# Installs the real SAT solvers the tests drive: minisat, cadical and picosat
# from Debian's packages, and kissat 4 from the PyPI wheel passagemath-kissat,
# which carries a kissat binary. Idempotent; quiet when everything is there.
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
for solver in minisat cadical picosat; do
  command -v "$solver" > /dev/null || missing+=("$solver")
done
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

for solver in minisat cadical picosat kissat; do
  command -v "$solver" > /dev/null || fail "$solver is still missing"
done
