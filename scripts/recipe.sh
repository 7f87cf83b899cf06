#!/usr/bin/env bash
# Prints the code block of docs/cluster.md marked `<!-- recipe: NAME -->`
# (the ```sh block right after the marker), exactly as written, so that the
# scripts that run the cluster recipes run what the documentation says.
# Fails when there is no such block.
set -euo pipefail
name=${1:?usage: scripts/recipe.sh NAME}
doc="$(dirname "$0")/../docs/cluster.md"
awk -v marker="<!-- recipe: $name -->" '
  $0 == marker { armed = 1; next }
  armed && /^```sh$/ { inside = 1; armed = 0; next }
  inside && /^```$/ { found = 1; exit }
  inside { print }
  END { exit found ? 0 : 1 }
' "$doc" || { echo "recipe.sh: no block marked 'recipe: $name' in $doc" >&2; exit 1; }
