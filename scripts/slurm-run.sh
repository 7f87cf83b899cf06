#!/usr/bin/env bash
# Runs docs/cluster.md's Slurm array jobs verbatim on a one-node Slurm
# cluster made on this machine, and prints their output (the sums).
#
#   scripts/slurm-run.sh [KNIGHTSAT [RECIPE...]]
#
# KNIGHTSAT is the binary to run (default: knightsat on PATH); each RECIPE
# is the name of a block of docs/cluster.md (default: slurm, the cubes'),
# run one after another on the same cluster, each in a directory of its
# own. The script
# writes a one-node slurm.conf (node `localhost` at 127.0.0.1, as many CPUs
# as this machine has) and a MUNGE key into a temporary directory, starts
# munged (on a socket there), slurmctld and slurmd in the foreground on free
# ports bound to 127.0.0.1 only, runs the recipe in that directory, then
# cancels any job left, stops the three daemons and deletes the directory,
# also when interrupted. Needs root (slurmd starts jobs as their user), and
# Debian's slurm-wlm and munge (scripts/install-solvers.sh installs them).
#
# Plugins: no systemd and no cgroup hierarchy for Slurm are assumed (CI
# runs in a container), so processes are tracked through /proc
# (proctrack/linuxproc), tasks are not confined (task/none), and nothing is
# accounted (jobacct_gather/none, accounting_storage/none).
#
# Two settings keep the short array jobs of the recipes short. MinJobAge=0
# keeps every finished job's record (the cluster lives for one run), and
# `sbatch --wait` then asks every 2 s whether the job has ended, where with
# the default (300) it sleeps 2, 8 and then 32 s between asks.
# batch_sched_delay=0 lets the scheduler start the next array tasks within
# a second of a task's end, not every 3 s. The cubes' recipe took 8 s with
# neither and 6 s with both (5 tasks, 2 at a time, each under 0.1 s).
# sched_interval=1 has the scheduler look every second, so that a requeued
# task starts as soon as its begin time has come, not at the next pass a
# minute on (the requeue recipe took 10 s with it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "slurm-run: $*" >&2; }
# shellcheck source=scripts/run-recipe.sh
. "$root/scripts/run-recipe.sh"

knightsat=$(command -v "${1:-knightsat}") || { say "no knightsat binary: ${1:-knightsat}"; exit 1; }
knightsat=$(readlink -f "$knightsat")
[ "$(id -u)" -eq 0 ] || { say "needs root: slurmd starts jobs as their user"; exit 1; }
for daemon in munged slurmctld slurmd; do
  command -v "$daemon" > /dev/null || { say "no $daemon: run scripts/install-solvers.sh"; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/knightsat-slurm.XXXXXX")
chmod 755 "$work"
pids=()
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [ -n "${recipe:-}" ]; then
    kill -TERM -- "-$recipe" 2> /dev/null || true
    wait "$recipe" 2> /dev/null || true
  fi
  # Jobs first (while slurmctld and slurmd can still end them), then the
  # daemons, newest first.
  if [ ${#pids[@]} -ge 2 ]; then
    scancel --quiet --user=root 2> /dev/null || true
    for _ in $(seq 50); do
      [ -z "$(squeue --noheader 2> /dev/null)" ] && break
      sleep 0.2
    done
  fi
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill -TERM "${pids[i]}" 2> /dev/null || true
    wait "${pids[i]}" 2> /dev/null || true
  done
  if [ "$status" -ne 0 ] && [ -d "$work" ]; then
    for log in "$work"/*.log; do
      [ -s "$log" ] && { say "$log:"; tail -n 20 "$log" >&2; }
    done
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
ctld_port=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done
cpus=$(nproc)

mkdir -p "$work/bin" "$work/state" "$work/spool" "$work/recipe"
ln -s "$knightsat" "$work/bin/knightsat"
# MUNGE: a fresh key, readable by root alone.
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge.key"
munged --foreground --force --socket="$work/munge.socket" --key-file="$work/munge.key" \
  --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munged.seed" \
  2>> "$work/munged.log" &
pids+=($!)

export SLURM_CONF="$work/slurm.conf"
cat > "$SLURM_CONF" << EOF
ClusterName=knightsat
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
AuthType=auth/munge
AuthInfo=socket=$work/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
MinJobAge=0
SchedulerParameters=batch_sched_delay=0,sched_interval=1
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
for _ in $(seq 50); do
  [ -S "$work/munge.socket" ] && break
  sleep 0.1
done
# In the foreground, so that their process ids are ours; their messages go
# to their logs (shown if the run fails).
slurmctld -D -f "$SLURM_CONF" 2>> "$work/slurmctld.log" &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N localhost 2>> "$work/slurmd.log" &
pids+=($!)
# The cluster is up once the node is idle.
for _ in $(seq 150); do
  state=$(sinfo --noheader --nodes=localhost --format=%t 2> /dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.2
done
[ "$state" = idle ] || { say "the node did not come up (state: '${state:-none}')"; exit 1; }
# Nothing listens beyond loopback.
listening=$(ss -Hltn "( sport = :$ctld_port or sport = :$slurmd_port )" | awk '{print $4}' | sort -u)
if [ -z "$listening" ] || grep -qv '^127\.0\.0\.1:' <<< "$listening"; then
  say "the daemons listen on: ${listening:-nothing}; expected 127.0.0.1 only"
  exit 1
fi
say "one-node Slurm cluster up: slurmctld on 127.0.0.1:$ctld_port, slurmd on 127.0.0.1:$slurmd_port, $cpus CPUs"

# For a recipe whose name ends in -requeue: once a task has saved a
# checkpoint's states (DIR-K/states.checkpoint, K its array index), it is
# requeued as a scheduler preempting it would, once; says which.
preempt_once() {
  local dir=$1 states index job
  for _ in $(seq 1200); do
    for states in "$dir"/*/states.checkpoint; do
      [ -e "$states" ] || continue
      index=$(basename "$(dirname "$states")")
      index=${index##*-}
      job=$(squeue --noheader --states=RUNNING --format=%i | grep -m 1 "_${index}\$" || true)
      if [ -n "$job" ] && scontrol requeue "$job" 2> /dev/null; then
        say "requeued $job"
        # Slurm holds a requeued job back two minutes (its begin time, set
        # once it is pending again); the test need not wait them out. Not
        # at once, though: a start in the same second as the requeue finds
        # the job's credential revoked and is killed, so two seconds on
        # (and sched_interval=1 has the scheduler look again then).
        for _ in $(seq 200); do
          if [ "$(squeue --noheader --jobs="$job" --format=%T 2> /dev/null)" = PENDING ] &&
            scontrol update JobId="$job" StartTime=now+2 2> /dev/null; then
            break
          fi
          sleep 0.05
        done
        return 0
      fi
    done
    sleep 0.05
  done
  say "no task to requeue"
}

export PATH="$work/bin:$PATH"
recipes=("${@:2}")
[ ${#recipes[@]} -gt 0 ] || recipes=(slurm)
for name in "${recipes[@]}"; do
  mkdir -p "$work/recipe/$name"
  preempting=
  if [[ $name == *-requeue ]]; then
    preempt_once "$work/recipe/$name" &
    preempting=$!
  fi
  run_recipe "$name" "$work/recipe/$name"
  if [ -n "$preempting" ]; then
    wait "$preempting"
    say "$name: $(grep -l 'checkpoint: going on from' -- *.log | wc -l) task(s) went on from a checkpoint"
  fi
  say "$name: array tasks: $(ls -- *.txt | wc -l) output files"
done
