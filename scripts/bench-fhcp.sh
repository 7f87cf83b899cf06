#!/usr/bin/env bash
# The FHCP Challenge Set side by side: knightsat's default route on each
# graph (and, where CEGAR_FIX names its binary, the SAT 2025 CEGAR's
# cegar-fix "all", `-e 1 -b 3 -y 3 -t 3 -l 1`), the same time limit each,
# one row a graph and the totals. Every cycle either prints is checked twice:
# by `knightsat verify --graph` and by this script's own check (Python,
# reading the graph file itself), so a wrong cycle counts as unsolved and
# is named.
#
# It fetches nothing: the graphs come from DIR (the FHCPCS-col/graphN.col
# files of github TakehideSoh/SAT-based-CEGAR, DIMACS with the TSPLIB
# header as comments; or any *.col / *.hcp files).
#
#   scripts/bench-fhcp.sh DIR                 every tenth graph (10, 20, …, 1000)
#   STEP=1 scripts/bench-fhcp.sh DIR          every graph
#   GRAPHS="1 50 668" scripts/bench-fhcp.sh DIR
#   LIMIT=60 (seconds a graph), KNIGHTSAT=path, CEGAR_FIX=path, OUT=file.tsv,
#   PARALLEL=1 (the two solvers at once, one core each, on a 2-core machine)
#   SOLVER_PROGRAM=kissat: knightsat's column is the complete CNF instead,
#   `encode --graph G --closed` given to that program (SAT-competition
#   output, exit 10 for satisfiable) and its model read back by `decode`,
#   the three within the limit; kissat gets `--time` as well;
#   ENCODE_FLAGS="--position-support" (for example) are
#   given to that `encode`; with HEULE_CRE=DIR (a checkout of github
#   marijnheule/ChineseRemainderEncoding, built here with gcc) the other
#   column is Heule's own `hcp-encode` with cycle length 420 (the peer's
#   `crt-420` column; HEULE_CYCLE to change it) given to the same program,
#   his `hcp-decode` checking the cycle (DIMACS graphs only)
#
# cegar-fix itself is built by scripts/build-cegar-fix.sh (it needs
# CaDiCaL 1.9.4's sources and libclang; see there).
#
# Release build of knightsat expected (cargo build --release).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/bench-fhcp.sh DIR (the directory of FHCP graphN.col files)}
limit=${LIMIT:-60}
export ENCODE_FLAGS=${ENCODE_FLAGS:-}
step=${STEP:-10}
knightsat=${KNIGHTSAT:-target/release/knightsat}
cegar=${CEGAR_FIX:-}
heule=${HEULE_CRE:-}
out=${OUT:-}
[ -x "$knightsat" ] || { echo "bench-fhcp: no $knightsat (cargo build --release)" >&2; exit 2; }
[ -d "$dir" ] || { echo "bench-fhcp: $dir is not a directory" >&2; exit 2; }
if [ -n "${GRAPHS:-}" ]; then
  numbers=$GRAPHS
else
  numbers=$(seq "$step" "$step" 1001)
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-fhcp.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -n "$heule" ]; then
  [ -n "${SOLVER_PROGRAM:-}" ] || { echo "bench-fhcp: HEULE_CRE is a complete CNF: give SOLVER_PROGRAM too" >&2; exit 2; }
  [ -n "$cegar" ] && { echo "bench-fhcp: one peer at a time: HEULE_CRE or CEGAR_FIX" >&2; exit 2; }
  mkdir "$work/h"
  for tool in hcp-encode hcp-decode; do
    gcc -O2 -o "$work/$tool" "$heule/$tool.c" || exit 2
  done
fi

# check GRAPH CYCLE: exit 0 when CYCLE (vertex numbers, any separators)
# is a Hamiltonian cycle of GRAPH (DIMACS `e U V` or TSPLIB pairs).
check() {
  python3 - "$1" "$2" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
n = None
edges = set()
m = re.search(r"^p\s+(?:edge\s+|col\s+)?(\d+)", text, re.M)
if m:
    n = int(m.group(1))
    for u, v in re.findall(r"^e\s+(\d+)\s+(\d+)", text, re.M):
        edges.add((int(u), int(v))); edges.add((int(v), int(u)))
else:
    n = int(re.search(r"DIMENSION\s*:\s*(\d+)", text).group(1))
    section = text.split("EDGE_DATA_SECTION", 1)[1]
    numbers = [int(w) for w in section.split() if w.lstrip("-").isdigit()]
    numbers = numbers[: numbers.index(-1)] if -1 in numbers else numbers
    for u, v in zip(numbers[::2], numbers[1::2]):
        edges.add((u, v)); edges.add((v, u))
cycle = [int(w) for w in re.findall(r"\d+", open(sys.argv[2]).read())]
ok = (len(cycle) == n and sorted(cycle) == list(range(1, n + 1))
      and all((a, b) in edges for a, b in zip(cycle, cycle[1:] + cycle[:1])))
sys.exit(0 if ok else 1)
PY
}

# run NAME GRAPH COMMAND...: runs COMMAND in its own process group within
# the limit; prints "seconds status". cegar-fix runs with no limit on its
# stack: it recurses once per refinement and overflows the default 8 MiB
# after about 7,000 of them (graph 230), aborting.
run() {
  local name=$1 graph=$2
  shift 2
  local start end status=0
  start=$(date +%s.%N)
  timeout -k 2 "$limit" setsid "$@" >"$work/$name.out" 2>"$work/$name.err" || status=$?
  end=$(date +%s.%N)
  echo "$(echo "$end - $start" | bc) $status"
}

# solve_cnf, the shared middle of the two below: PROGRAM ($4, with the
# limit $5) solves the CNF "$cnf" into "$model"; exit 124 when it gives
# no model (it stopped at its limit). `run` signals the shell alone at the
# limit, which would leave PROGRAM running: PROGRAM is waited for in the
# background (a foreground child would hold the trap back), and the trap
# ends the shell's whole process group, its own since setsid.
solve_cnf='
  status=0
  extra=()
  [ "$(basename "$4")" = kissat ] && extra=(--time="$5")
  trap "trap - TERM; kill -TERM -- -\$\$" TERM
  "$4" "${extra[@]}" "$cnf" >"$model" &
  wait "$!" || status=$?
  [ "$status" = 10 ] || exit 124'
# complete_cnf KNIGHTSAT GRAPH WORK PROGRAM LIMIT (SOLVER_PROGRAM): the
# complete CNF solved by PROGRAM, its model decoded into the cycle (on
# stdout).
complete_cnf='
  cnf=$3/ours.cnf model=$3/ours.model
  # shellcheck disable=SC2086
  "$1" encode --graph "$2" --closed $ENCODE_FLAGS >"$cnf" || exit
  '"$solve_cnf"'
  exec "$1" decode --cnf "$cnf" --format moves "$model"'
# heule_cnf HEULE_TOOLS GRAPH WORK PROGRAM LIMIT CYCLE: Heule's CRE of
# GRAPH (its `p edge` header and edges) solved by PROGRAM; on stdout his
# decoder's verdict, exit 0 when it says VERIFIED.
heule_cnf='
  cnf=$3/heule.cnf model=$3/heule.model
  awk "/^p /{print \"p edge\", \$(NF-1), \$NF} /^e /{print}" "$2" >"$3/g.edge"
  "$1/hcp-encode" "$3/g.edge" "$6" >"$cnf" || exit
  '"$solve_cnf"'
  # His decoder reads the "s" and "v" lines alone (it loops on comments),
  # and waits in the background like the solver, so that the trap can end it.
  grep -E "^[sv] " "$model" >"$3/heule.sv"
  "$1/hcp-decode" "$3/g.edge" "$3/heule.sv" >"$3/heule.verdict" &
  wait "$!"
  grep VERIFIED "$3/heule.verdict"'
peer=cegar-fix
[ -n "$heule" ] && peer=crt-${HEULE_CYCLE:-420}
printf '%-10s %7s %6s %9s %-8s %9s %-8s\n' graph vertices edges knightsat verdict "$peer" verdict
[ -n "$out" ] && printf 'graph\tvertices\tedges\tknightsat_s\tknightsat\tcegar_s\tcegar\n' >"$out"
ours=0 theirs=0 total=0 wrong=0
ours_times=() both_ours=() both_theirs=()
for number in $numbers; do
  graph="$dir/graph$number.col"
  [ -f "$graph" ] || graph="$dir/graph$number.hcp"
  [ -f "$graph" ] || continue
  total=$((total + 1))
  header=$(grep -m1 -E '^p ' "$graph" || true)
  vertices=$(echo "$header" | awk '{print $(NF-1)}')
  edges=$(echo "$header" | awk '{print $NF}')
  # The two side by side, one core each (PARALLEL=1), or one after the other.
  if [ -n "$cegar" ] && [ "${PARALLEL:-}" = 1 ]; then
    run theirs "$graph" bash -c 'ulimit -s unlimited && exec "$@"' cegar-fix "$cegar" -i "$graph" -e 1 -b 3 -y 3 -t 3 -l 1 >"$work/theirs.run" &
  fi
  if [ -n "$heule" ] && [ "${PARALLEL:-}" = 1 ]; then
    run theirs "$graph" bash -c "$heule_cnf" heule-cnf "$work" "$graph" "$work/h" "$SOLVER_PROGRAM" "$limit" "${HEULE_CYCLE:-420}" >"$work/theirs.run" &
  fi
  if [ -n "${SOLVER_PROGRAM:-}" ]; then
    read -r our_time our_status < <(run ours "$graph" bash -c "$complete_cnf" complete-cnf "$knightsat" "$graph" "$work" "$SOLVER_PROGRAM" "$limit")
  else
    read -r our_time our_status < <(run ours "$graph" "$knightsat" solve --graph "$graph" --closed --format moves --timeout "$limit")
  fi
  wait
  verdict=timeout
  if [ "$our_status" = 0 ]; then
    if check "$graph" "$work/ours.out" && "$knightsat" verify --graph "$graph" --closed "$work/ours.out" >/dev/null 2>&1; then
      verdict=solved
      ours=$((ours + 1))
    else
      verdict=WRONG
      wrong=$((wrong + 1))
    fi
  elif [ "$our_status" = 20 ]; then
    # Every FHCP graph is Hamiltonian: "no tour" is a wrong answer.
    verdict=WRONG
    wrong=$((wrong + 1))
  elif [ "$our_status" != 124 ]; then
    verdict="exit$our_status"
  fi
  their_time=- their=-
  if [ -n "$heule" ]; then
    if [ "${PARALLEL:-}" != 1 ]; then
      run theirs "$graph" bash -c "$heule_cnf" heule-cnf "$work" "$graph" "$work/h" "$SOLVER_PROGRAM" "$limit" "${HEULE_CYCLE:-420}" >"$work/theirs.run"
    fi
    read -r their_time their_status <"$work/theirs.run"
    their=timeout
    if [ "$their_status" = 0 ]; then
      their=solved
      theirs=$((theirs + 1))
    elif [ "$their_status" != 124 ] && [ "$their_status" != 137 ]; then
      their="exit$their_status"
    fi
  fi
  if [ -n "$cegar" ]; then
    if [ "${PARALLEL:-}" != 1 ]; then
      run theirs "$graph" bash -c 'ulimit -s unlimited && exec "$@"' cegar-fix "$cegar" -i "$graph" -e 1 -b 3 -y 3 -t 3 -l 1 >"$work/theirs.run"
    fi
    read -r their_time their_status <"$work/theirs.run"
    their=timeout
    if grep -q '^s SATISFIABLE' "$work/theirs.out"; then
      awk '/^solution:/{getline; print; exit}' "$work/theirs.out" >"$work/theirs.cycle"
      if check "$graph" "$work/theirs.cycle"; then
        their=solved
        theirs=$((theirs + 1))
      else
        their=WRONG
      fi
    elif [ "$their_status" != 124 ] && [ "$their_status" != 137 ]; then
      their="exit$their_status"
    fi
  fi
  [ "$verdict" = solved ] && ours_times+=("$our_time")
  if [ "$verdict" = solved ] && [ "$their" = solved ]; then
    both_ours+=("$our_time")
    both_theirs+=("$their_time")
  fi
  [ "$their_time" != - ] && their_time=$(printf '%.2f' "$their_time")
  printf '%-10s %7s %6s %9.2f %-8s %9s %-8s\n' "graph$number" "$vertices" "$edges" "$our_time" "$verdict" "$their_time" "$their"
  [ -n "$out" ] && printf 'graph%s\t%s\t%s\t%.2f\t%s\t%s\t%s\n' "$number" "$vertices" "$edges" "$our_time" "$verdict" "$their_time" "$their" >>"$out"
done

median() {
  if [ $# -eq 0 ]; then echo -; return; fi
  printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {if (NR % 2) printf "%.3f\n", a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'
}
echo "total: $total graphs, ${limit} s each"
echo "knightsat: $ours solved ($wrong wrong), median $(median "${ours_times[@]}") s over its solved"
if [ -n "$cegar$heule" ]; then
  [ -n "$cegar" ] && echo "cegar-fix all: $theirs solved"
  [ -n "$heule" ] && echo "$peer: $theirs solved"
  echo "both solved: ${#both_ours[@]}; median knightsat $(median "${both_ours[@]}") s, $peer $(median "${both_theirs[@]}") s"
fi
[ "$wrong" -eq 0 ]
