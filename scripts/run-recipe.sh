# Sourced by ssh-run.sh and slurm-run.sh: run_recipe NAME DIR runs the
# block of docs/cluster.md named NAME (scripts/recipe.sh) in DIR, in a
# process group of its own whose leader's pid is kept in `recipe`, so that
# the caller's clean-up can end the whole group when a signal arrives; it
# waits for the block here, so that the signal is handled at once.
run_recipe() {
  local name=$1 dir=$2
  cd "$dir"
  "$root/scripts/recipe.sh" "$name" > recipe.sh
  set -m
  bash -euo pipefail recipe.sh &
  recipe=$!
  set +m
  wait "$recipe"
  recipe=
}
