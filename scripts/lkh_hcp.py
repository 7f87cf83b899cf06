"""LKH-3 on Hamiltonian cycle problems: the TSP heuristic the FHCP
literature measures, as a peer for scripts/bench-fhcp.sh's graphs.

Each graph (DIMACS `p`/`e` lines, TSPLIB HCP, or plain `u v` lines) becomes
a symmetric TSP whose distances are 0 along an edge and 1 elsewhere; a tour
of length 0 is a Hamiltonian cycle. LKH-3 comes from PyPI's `elkai` (which
compiles LKH-3's C into a Python module), given the whole distance matrix,
one run with default parameters (5-opt moves, alpha-nearness candidates),
the trials bounded by time alone, and stopped at length 0. A row a graph:
its name, vertices, the tour's links that are not edges (0: a cycle, checked
here against the file), seconds.

    "$(scripts/bench-venv.sh)" scripts/lkh_hcp.py [--time 60] GRAPH...

(scripts/bench-venv.sh prints the benchmarks' Python, elkai installed.)
The matrix is n^2 integers in LKH and as text on the way: about 330 MB
and 180 MB for the largest FHCP graph's 9,528 vertices.
"""

import argparse
import sys
import time


def read_graph(path):
    """Returns (n, edges) with vertices numbered from 1, by the file's content."""
    n = None
    edges = []
    in_tsplib_edges = False
    with open(path) as f:
        for line in f:
            tokens = line.replace(":", " : ").split()
            if not tokens:
                continue
            head = tokens[0]
            if head in ("c", "NAME", "COMMENT", "TYPE", "EDGE_DATA_FORMAT"):
                continue
            if head == "p":
                n = int(tokens[-2])
            elif head == "DIMENSION":
                n = int(tokens[-1])
            elif head == "EDGE_DATA_SECTION":
                in_tsplib_edges = True
            elif head in ("-1", "EOF"):
                in_tsplib_edges = False
            elif head == "e":
                edges.append((int(tokens[1]), int(tokens[2])))
            elif in_tsplib_edges or head.isdigit():
                edges.append((int(tokens[0]), int(tokens[1])))
    if n is None:
        n = max(max(u, v) for u, v in edges)
    return n, edges


def lkh_tour(n, edges, seconds):
    """LKH-3's best tour (vertices from 1) for distances 0 on edges, 1 off them."""
    from elkai import _elkai

    neighbours = [set() for _ in range(n + 1)]
    for u, v in edges:
        neighbours[u].add(v)
        neighbours[v].add(u)
    rows = []
    for u in range(1, n + 1):
        row = ["1"] * n
        row[u - 1] = "0"
        for v in neighbours[u]:
            row[v - 1] = "0"
        rows.append(" ".join(row))
    problem = (
        f"TYPE : TSP\nDIMENSION : {n}\nEDGE_WEIGHT_TYPE : EXPLICIT\n"
        "EDGE_WEIGHT_FORMAT : FULL_MATRIX\nEDGE_WEIGHT_SECTION\n"
        + "\n".join(rows)
        + "\nEOF\n"
    )
    parameters = (
        "PROBLEM_FILE = :stdin:\nRUNS = 1\nMAX_TRIALS = 1000000000\n"
        f"OPTIMUM = 0\nTIME_LIMIT = {seconds}\nTRACE_LEVEL = 0\n"
    )
    return _elkai.solve_problem(parameters, problem), neighbours


def links_off_the_graph(n, tour, neighbours):
    """How many of the cyclic tour's links are not edges; None if not a tour."""
    if sorted(tour) != list(range(1, n + 1)):
        return None
    return sum(1 for i in range(n) if tour[(i + 1) % n] not in neighbours[tour[i]])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time", type=float, default=60, help="seconds of LKH's search a graph")
    parser.add_argument("graphs", nargs="+")
    args = parser.parse_args()
    print("graph\tvertices\tlinks off the graph\tseconds")
    solved = 0
    for path in args.graphs:
        n, edges = read_graph(path)
        started = time.monotonic()
        tour, neighbours = lkh_tour(n, edges, args.time)
        seconds = time.monotonic() - started
        off = links_off_the_graph(n, tour, neighbours)
        if off == 0:
            solved += 1
        print(f"{path}\t{n}\t{'not a tour' if off is None else off}\t{seconds:.2f}", flush=True)
    print(f"cycles found: {solved} of {len(args.graphs)}", file=sys.stderr)


if __name__ == "__main__":
    main()
