#!/usr/bin/env bash
# Runs docs/cluster.md's GNU parallel --sshloginfile recipes verbatim across
# two ssh hosts made on this machine, and prints their output (the sums).
#
#   scripts/ssh-run.sh [KNIGHTSAT [RECIPE...]]
#
# KNIGHTSAT is the binary to run (default: knightsat on PATH); each RECIPE
# is the name of a block of docs/cluster.md (default: ssh, the cubes'), run
# one after another on the same hosts, each in a directory of its own. The hosts are
# two sshd processes listening on 127.0.0.2 and 127.0.0.3 only (loopback:
# no traffic leaves the machine), on a free port, with a throwaway host key
# and client key, root login by that key only, and the binary on the
# sessions' PATH at the same path as here. Everything lives in a temporary
# directory; the daemons are stopped and the directory deleted on exit,
# also when the script is interrupted. Needs root (sshd), openssh-server
# and GNU parallel (scripts/install-solvers.sh installs both).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "ssh-run: $*" >&2; }
# shellcheck source=scripts/run-recipe.sh
. "$root/scripts/run-recipe.sh"

knightsat=$(command -v "${1:-knightsat}") || { say "no knightsat binary: ${1:-knightsat}"; exit 1; }
knightsat=$(readlink -f "$knightsat")
[ "$(id -u)" -eq 0 ] || { say "needs root, to start sshd and log in as root"; exit 1; }
sshd=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$sshd" ] || { say "no sshd: run scripts/install-solvers.sh"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/knightsat-ssh.XXXXXX")
pids=()
made_run_sshd=false
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [ -n "${recipe:-}" ]; then
    kill -TERM -- "-$recipe" 2> /dev/null || true
    wait "$recipe" 2> /dev/null || true
  fi
  for pid in "${pids[@]}"; do
    kill -TERM "$pid" 2> /dev/null || true
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2> /dev/null || true
  done
  if $made_run_sshd; then rmdir /run/sshd 2> /dev/null || true; fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A free port on loopback (the kernel's choice, released at once).
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
bin="$work/bin"
mkdir -p "$bin" "$work/recipe"
ln -s "$knightsat" "$bin/knightsat"
ssh-keygen -q -t ed25519 -N '' -C knightsat-host -f "$work/host_key"
ssh-keygen -q -t ed25519 -N '' -C knightsat-client -f "$work/client_key"
cp "$work/client_key.pub" "$work/authorized_keys"
# sshd wants its privilege separation directory.
if [ ! -d /run/sshd ]; then
  mkdir -p /run/sshd
  chmod 755 /run/sshd
  made_run_sshd=true
fi

hosts=(127.0.0.2 127.0.0.3)
: > "$work/known_hosts"
: > "$work/recipe/hosts"
for host in "${hosts[@]}"; do
  cat > "$work/sshd_config.$host" << EOF
ListenAddress $host:$port
HostKey $work/host_key
PidFile none
AuthorizedKeysFile $work/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
X11Forwarding no
AllowTcpForwarding no
PrintMotd no
SetEnv PATH=$bin:/usr/local/bin:/usr/bin:/bin
EOF
  "$sshd" -D -e -f "$work/sshd_config.$host" 2> "$work/sshd.$host.log" &
  pids+=($!)
  echo "[$host]:$port $(cut -d' ' -f1-2 "$work/host_key.pub")" >> "$work/known_hosts"
  echo "1/$host" >> "$work/recipe/hosts"
done

cat > "$work/ssh_config" << EOF
Host ${hosts[*]}
  Port $port
  User root
  IdentityFile $work/client_key
  IdentitiesOnly yes
  UserKnownHostsFile $work/known_hosts
  StrictHostKeyChecking yes
  BatchMode yes
  ConnectTimeout 10
EOF
# Each sshd is up once it accepts a login.
for host in "${hosts[@]}"; do
  for _ in $(seq 50); do
    ssh -F "$work/ssh_config" "$host" true 2> /dev/null && continue 2
    sleep 0.1
  done
  say "sshd on $host:$port did not come up:"
  cat "$work/sshd.$host.log" >&2
  exit 1
done
# Nothing listens beyond those two addresses.
listening=$(ss -Hltn "( sport = :$port )" | awk '{print $4}' | sort -u | tr '\n' ' ')
if [ "$listening" != "127.0.0.2:$port 127.0.0.3:$port " ]; then
  say "sshd listens on: ${listening:-nothing}; expected 127.0.0.2 and 127.0.0.3 only"
  exit 1
fi
say "two ssh hosts up: ${hosts[*]}, port $port"

export PARALLEL_SSH="ssh -F $work/ssh_config"
export PATH="$bin:$PATH"
recipes=("${@:2}")
[ ${#recipes[@]} -gt 0 ] || recipes=(ssh)
for name in "${recipes[@]}"; do
  mkdir -p "$work/recipe/$name"
  cp "$work/recipe/hosts" "$work/recipe/$name/hosts"
  run_recipe "$name" "$work/recipe/$name"
done
# Which host ran how many sessions (each host had one login for the check
# above), so that a caller can see that the work went over ssh.
for host in "${hosts[@]}"; do
  logins=$(grep -c 'Accepted publickey' "$work/sshd.$host.log" || true)
  say "$host: $((logins - 1)) sessions"
done
