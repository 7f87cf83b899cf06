#!/usr/bin/env bash
# Builds the peer solver of scripts/bench-fhcp.sh: cegar-fix, the SAT 2025
# CEGAR for Hamiltonian cycles (github TakehideSoh/SAT-based-CEGAR,
# src/cegar-fix; Rust, rustsat and rustsat-cadical 0.4). It fetches
# nothing but crates: give it the two source trees.
#
#   scripts/build-cegar-fix.sh CEGAR_DIR CADICAL_DIR [OUT_DIR]
#
# CEGAR_DIR: a checkout of SAT-based-CEGAR (or its src/cegar-fix).
# CADICAL_DIR: CaDiCaL 1.9.4's sources (github arminbiere/cadical, tag
# rel-1.9.4). rustsat-cadical's build script clones CaDiCaL unless
# CADICAL_SRC_DIR names a tree, and does not patch a tree it is given, so
# the crate's own patches/v192.patch is applied to a copy here. bindgen
# needs libclang (Debian: libclang-dev, installed if missing). OUT_DIR
# (default target/peer) gets the build; the binary is printed last.
# About 5 minutes on one core.
set -euo pipefail
cegar=$(realpath "${1:?usage: scripts/build-cegar-fix.sh CEGAR_DIR CADICAL_DIR [OUT_DIR]}")
cadical=$(realpath "${2:?usage: scripts/build-cegar-fix.sh CEGAR_DIR CADICAL_DIR [OUT_DIR]}")
out=$(realpath -m "${3:-$(dirname "$0")/../target/peer}")
[ -d "$cegar/src/cegar-fix" ] && cegar=$cegar/src/cegar-fix
[ -f "$cegar/Cargo.toml" ] || { echo "build-cegar-fix: no cegar-fix crate in $cegar" >&2; exit 2; }
grep -qx '1.9.4' "$cadical/VERSION" 2>/dev/null ||
  echo "build-cegar-fix: warning: $cadical/VERSION is not 1.9.4" >&2
if ! dpkg -s libclang-dev >/dev/null 2>&1; then
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y libclang-dev
fi
mkdir -p "$out"
rm -rf "$out/cegar-fix" "$out/cadical"
cp -r "$cegar" "$out/cegar-fix"
cp -r "$cadical" "$out/cadical"
cd "$out/cegar-fix"
cargo fetch
crate=$(ls -d "$HOME"/.cargo/registry/src/*/rustsat-cadical-0.4.* | sort -V | tail -1)
(cd "$out/cadical" && patch -p1 <"$crate/patches/v192.patch")
CADICAL_SRC_DIR="$out/cadical" nice -n 10 cargo build --release -j1
echo "$out/cegar-fix/target/release/cegar-fix"
