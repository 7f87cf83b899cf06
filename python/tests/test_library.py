"""The library's own routes from Python: solve, count, verify, puzzle,
DIMACS; counts checked against an independent brute force."""

import functools
import re

import pytest

import brute
import knightsat as ks
from conftest import os_threads, wait_for_threads
from test_pysat import pysat_tours


@pytest.mark.parametrize(
    "rows, cols, rules",
    [
        (1, 1, {}),
        (3, 3, {}),
        (3, 4, {}),
        (4, 4, {}),
        (3, 4, {"closed": True}),
        (3, 5, {"holes": ["b2"]}),
        (4, 4, {"leaper": (1, 3)}),
        (2, 5, {"leaper": (1, 1)}),
        (3, 6, {"closed": True}),
    ],
)
@pytest.mark.parametrize("method", ["auto", "backtrack", "sat"])
def test_counts_agree_with_a_brute_force(rows, cols, rules, method):
    problem = ks.Problem(rows, cols, **rules)
    assert ks.count(problem, method=method) == brute.count(rows, cols, **rules)


def test_counts_of_the_5x5():
    assert ks.count(ks.Problem(5)) == 1728
    assert ks.count(ks.Problem(5), method="frontier") == 1728
    # The orbits of every tour PySAT lists (a brute force in Python takes
    # too long on 5x5), grouped in plain Python.
    tours = pysat_tours(ks.Problem(5))
    assert len(tours) == 1728
    assert ks.count(ks.Problem(5), up_to_symmetry=True) == brute.orbits(5, tours)
    assert ks.count(ks.Problem(5), limit=10, method="backtrack") == 10
    assert ks.count(ks.Problem(5), jobs=2) == 1728
    assert ks.count(ks.Problem(5), solver="cadical") == 1728


@pytest.mark.parametrize("method", ["auto", "sat", "backtrack", "warnsdorff"])
def test_solve_finds_a_verified_tour(method):
    problem = ks.Problem(8)
    tour = ks.solve(problem, method=method)
    assert len(tour) == 64
    ks.verify(tour, problem)


def test_solve_by_each_encoding_and_solver():
    problem = ks.Problem(6, closed=True, start="c3")
    for encoding in ["time-indexed", "successor"]:
        for solver in ["varisat", "cadical"]:
            tour = ks.solve(problem, encoding=encoding, solver=solver)
            assert tour[0] == "c3"
            ks.verify(tour, problem)


def test_solve_says_none_when_there_is_no_tour():
    assert ks.solve(ks.Problem(4)) is None
    assert ks.solve(ks.Problem(5, closed=True), method="sat") is None


def test_a_solved_clued_problem_keeps_its_clues():
    problem = ks.Problem(6, clues=["1=a1", "36=f5"])
    tour = ks.solve(problem)
    assert tour[0] == "a1" and tour[-1] == "f5"


def test_verify_takes_a_string_and_rejects_broken_tours():
    problem = ks.Problem(5)
    tour = ks.solve(problem)
    ks.verify(" ".join(tour), problem)
    with pytest.raises(ks.KnightsatError, match="never visited"):
        ks.verify(tour[:-1], problem)
    with pytest.raises(ks.KnightsatError):
        ks.verify(tour[1:] + tour[:1], ks.Problem(5, start=tour[0]))
    with pytest.raises(ks.KnightsatError):
        ks.verify(tour, ks.Problem(5, closed=True))


def test_dimacs_has_the_header_the_clauses_give():
    problem = ks.Problem(5)
    formula = ks.encode(problem)
    text = ks.dimacs(problem)
    assert text == formula.dimacs()
    assert text.startswith("c knightsat ")
    header = re.search(r"^p cnf (\d+) (\d+)$", text, re.M)
    assert (int(header[1]), int(header[2])) == (formula.nvars, len(formula.clauses))
    body = [line for line in text.splitlines() if line and line[0] not in "cp"]
    assert [int(x) for x in body[0].split()[:-1]] == formula.clauses[0]


def test_a_puzzle_has_one_solution():
    made = ks.puzzle(ks.Problem(6), seed=7)
    assert made.untried == 0
    assert ks.count(made.problem) == 1
    ks.verify(made.solution, made.problem)
    assert ks.solve(made.problem) == made.solution
    for move, square in made.clues.items():
        assert made.solution[move - 1] == square
    assert ks.puzzle(ks.Problem(6), seed=7).clues == made.clues
    assert len(made.grid().splitlines()) == 7
    assert ks.puzzle(ks.Problem(4)) is None


def test_the_problem_says_what_it_is():
    problem = ks.Problem(4, 6, holes=["a1"], leaper="1,3", closed=True, clues={2: "b3"})
    assert (problem.rows, problem.cols, problem.squares) == (4, 6, 23)
    assert problem.holes == ["a1"] and problem.leaper == (1, 3)
    assert problem.closed and problem.clues == {2: "b3"}
    assert problem.square_names()[:2] == ["b1", "c1"]
    drawn = ks.Problem.from_ascii("...\n.#.\n...\n")
    assert drawn.holes == ["b2"] and drawn.squares == 8


@pytest.mark.parametrize(
    "make",
    [
        lambda: ks.Problem(0),
        lambda: ks.Problem(-1),
        lambda: ks.Problem(3, -4),
        lambda: ks.Problem(5, holes=["z9"]),
        lambda: ks.Problem(5, leaper="x"),
        lambda: ks.Problem(5, leaper=(0, 0)),
        lambda: ks.Problem(5, start="f1"),
        lambda: ks.Problem(5, holes=["a1"], start="a1"),
        lambda: ks.Problem(5, clues=["26=a1"]),
        lambda: ks.Problem(5, clues=["a1"]),
        lambda: ks.Problem(5, clues={1: "a1", 2: "a1"}),
        lambda: ks.encode(ks.Problem(5), encoding="magic"),
        lambda: ks.solve(ks.Problem(5), method="magic"),
        lambda: ks.solve(ks.Problem(5), timeout=-1),
        lambda: ks.solve(ks.Problem(5, clues={3: "c3"}), method="warnsdorff"),
        lambda: ks.count(ks.Problem(5), method="warnsdorff"),
        lambda: ks.verify(["a1", "z9"], ks.Problem(5)),
        lambda: ks.encode(ks.Problem(5)).decode([1, 2, 3]),
        lambda: ks.encode(ks.Problem(5)).decode([0]),
    ],
)
def test_bad_input_raises_value_error(make):
    with pytest.raises(ValueError):
        make()


def test_a_time_limit_that_runs_out_raises_knightsat_error():
    with pytest.raises(ks.KnightsatError, match="time limit"):
        ks.count(ks.Problem(6), method="sat", timeout=0.2)


def test_the_errors_are_exceptions_of_their_own():
    assert issubclass(ks.KnightsatError, Exception)
    assert not issubclass(ks.KnightsatError, ValueError)


def test_counts_past_128_bits_are_exact_ints():
    # 3x100 has more closed tours than 2**128: each of the 300 squares
    # starts as many as a1 does, so the two counts must differ by that
    # factor exactly (no rounding, no wrap-around).
    from_a1 = ks.count(ks.Problem(3, 100, closed=True, start="a1"), method="frontier")
    every = ks.count(ks.Problem(3, 100, closed=True), method="frontier")
    assert isinstance(every, int) and every > 2**128
    assert every == 300 * from_a1


@pytest.mark.parametrize(
    "make, says",
    [
        (lambda: ks.Problem(5, leaper=(-1, 2)), "leaper: "),
        (lambda: ks.Problem(5, leaper=(1, 2, 3)), "leaper: "),
        (lambda: ks.Problem(5, leaper="x"), "leaper"),
        (lambda: ks.Problem(5, clues={2**70: "a1"}), "clues: 1180591620717411303424 is not a move number"),
        (lambda: ks.Problem(5, clues={-1: "a1"}), "-1"),
        (lambda: ks.Problem(5, clues={3: 7}), "clues: move 3 is given 7, not a square"),
        (lambda: ks.Problem(5, clues=7), "clues: 7 is not clues"),
        (lambda: ks.Problem(2**64), "rows: 18446744073709551616 is not"),
        (lambda: ks.Problem(-3), "rows: -3 is not"),
        (lambda: ks.Problem(5, 2.5), "cols: 2.5 is not"),
        (lambda: ks.Problem(True), "rows: True is not"),
        (lambda: ks.Problem(5, holes=["c3", "c3"]), "c3 is named twice among the holes"),
        (lambda: ks.count(ks.Problem(5), jobs=-1), "jobs: -1 is not a number of threads"),
        (lambda: ks.count(ks.Problem(5), limit=-5), "limit: -5 is not a number of tours"),
        (lambda: ks.count(ks.Problem(5), limit=0), "a limit of 0 tours counts nothing"),
        (lambda: ks.count(ks.Problem(5), timeout=0), "timeout: 0 is not a number of seconds"),
        (lambda: ks.count(ks.Problem(5), timeout=1e300), "timeout: 1e300 is not a number of seconds"),
        (lambda: ks.count(ks.Problem(5), timeout=float("nan")), "timeout: NaN is not"),
        (lambda: ks.solve(ks.Problem(5), seed=-1), "seed: -1 is not a seed"),
        (lambda: ks.puzzle(ks.Problem(5), seed=-3), "seed: -3 is not a seed"),
        (lambda: ks.verify(None, ks.Problem(3, 4)), "tour: None is not square names"),
        (lambda: ks.verify([1, 2], ks.Problem(3, 4)), "tour: 1 is not a square's name"),
        (lambda: ks.Problem(5, holes=[3]), "holes: 3 is not a square's name"),
        (lambda: ks.encode(ks.Problem(3, 4)).block(7), "tour: 7 is not square names"),
        # The library's words, worded as the parameter's.
        (lambda: ks.Problem(5, start="x"), "start: bad square: 'x'"),
        (lambda: ks.Problem(5, end="z9"), "end: bad square: z9"),
        (lambda: ks.Problem(5, holes="x"), "holes: bad square"),
        (lambda: ks.Problem(5, leaper="x"), "leaper: bad leaper"),
        (lambda: ks.Problem(5, clues={0: "a1"}), "clues: clue 0=a1"),
        (lambda: ks.Problem.from_ascii("x"), "text: bad board"),
        (lambda: ks.encode(ks.Problem(5), encoding="x"), "encoding: unknown encoding 'x'"),
        (lambda: ks.count(ks.Problem(5), method="x"), "method: unknown method 'x'"),
        (lambda: ks.verify("x", ks.Problem(5)), "tour: bad square"),
        (lambda: ks.encode(ks.Problem(5), encoding="time-indexed").lit(26, "a1"), "move: a tour of 25"),
        (lambda: ks.encode(ks.Problem(5), encoding="time-indexed").lit(1, "z9"), "square: bad square"),
        (lambda: ks.encode(ks.Problem(5), encoding="successor").move_lit("z9", "a1"), "from_square: "),
        (lambda: ks.encode(ks.Problem(5)).decode([]), "model: the model is not a tour"),
    ],
)
def test_every_bad_value_is_a_value_error_naming_the_parameter(make, says):
    with pytest.raises(ValueError) as raised:
        make()
    message = str(raised.value)
    assert says in message
    assert "extract" not in message and "Pair | Text" not in message
    assert len(message) < 300


def test_square_names_may_be_one_string():
    assert sorted(ks.Problem(5, holes="c3,d4").holes) == ["c3", "d4"]
    formula = ks.encode(ks.Problem(3, 4), every_tour=True)
    tour = ks.solve(ks.Problem(3, 4))
    assert formula.block(" ".join(tour)) == formula.block(tour)
    ks.verify(" ".join(tour), ks.Problem(3, 4))


def test_a_leaper_may_be_a_list_or_text():
    assert ks.Problem(5, leaper=[1, 3]).leaper == (1, 3)
    assert ks.Problem(5, leaper="2,3").leaper == (2, 3)


PROBLEMS_BY_VALUE = [
    ks.Problem(5),
    ks.Problem(5, 6, closed=True),
    ks.Problem(6, holes=["c3", "d4"], leaper=(1, 3), start="a1", end="f6"),
    ks.Problem(5, clues={13: "c3", 1: "a1"}),
    ks.Problem.from_ascii("..#\n...\n..."),
    ks.Problem.from_graph([(1, 2), (2, 3), (3, 1)], closed=True, start=2),
]


@pytest.mark.parametrize("problem", PROBLEMS_BY_VALUE, ids=repr)
def test_a_problem_is_a_value(problem):
    import copy
    import pickle

    again = eval(repr(problem), {"knightsat": ks})
    assert again == problem and hash(again) == hash(problem)
    assert copy.copy(problem) == problem
    assert copy.deepcopy(problem) == problem
    assert pickle.loads(pickle.dumps(problem)) == problem
    assert {problem: 1}[again] == 1
    assert ks.encode(problem).problem == problem


def test_problems_that_differ_are_not_equal():
    assert ks.Problem(5) != ks.Problem(5, start="a1")
    assert ks.Problem(5) != ks.Problem(5, closed=True)
    assert ks.Problem(5) != "knightsat.Problem(5, 5)"
    assert len({ks.Problem(5), ks.Problem(5), ks.Problem(6)}) == 2


@functools.lru_cache(maxsize=None)
def every_tour(rows, cols, holes=()):
    """Every open tour by the brute force, listed once per board (5x5 takes
    seconds in plain Python)."""
    return tuple(tuple(tour) for tour in brute.tours(rows, cols, holes=list(holes)))


@pytest.mark.parametrize("method", ["auto", "sat", "backtrack"])
@pytest.mark.parametrize(
    "problem, brute_rules, keep",
    [
        (ks.Problem(5, start="a1"), {}, lambda tour: tour[0] == "a1"),
        (ks.Problem(3, 4), {}, lambda tour: True),
        (ks.Problem(5, clues={13: "c3"}), {}, lambda tour: tour[12] == "c3"),
        (ks.Problem(4, 5, holes=["a1"]), {"holes": ["a1"]}, lambda tour: True),
    ],
    ids=repr,
)
def test_tours_lists_every_tour_once_as_the_brute_force_does(problem, brute_rules, keep, method):
    listed = [tuple(tour) for tour in ks.tours(problem, method=method)]
    holes = tuple(brute_rules.get("holes", ()))
    expected = {tour for tour in every_tour(problem.rows, problem.cols, holes) if keep(tour)}
    assert len(listed) == len(set(listed))
    assert set(listed) == expected


def test_the_closed_tours_of_5x6_are_its_8_cycles_from_every_start_both_ways():
    listed = [tuple(tour) for tour in ks.tours(ks.Problem(5, 6, closed=True))]
    # 8 closed tours (the published count), each from 30 starts, 2 ways.
    assert len(listed) == len(set(listed)) == 8 * 30 * 2
    for tour in listed:
        closing = (tour[-1], tour[0])
        files = ord(closing[0][0]) - ord(closing[1][0])
        ranks = int(closing[0][1:]) - int(closing[1][1:])
        assert sorted((abs(files), abs(ranks))) == [1, 2]
    cycles = {frozenset(frozenset(pair) for pair in zip(t, t[1:] + t[:1])) for t in listed}
    assert len(cycles) == 8


def test_tours_from_a1_are_304_and_each_a_tour():
    listed = list(ks.tours(ks.Problem(5, start="a1")))
    assert len(listed) == 304
    for tour in listed:
        assert tour[0] == "a1" and len(set(tour)) == 25
        for here, there in zip(tour, tour[1:]):
            files, ranks = ord(here[0]) - ord(there[0]), int(here[1:]) - int(there[1:])
            assert sorted((abs(files), abs(ranks))) == [1, 2]


def test_leaving_the_loop_early_leaves_no_thread_running():
    before = os_threads()
    taken = []
    for tour in ks.tours(ks.Problem(7)):
        taken.append(tour)
        if len(taken) == 3:
            break
    assert len(taken) == 3
    assert wait_for_threads(before) == before
    iterator = ks.tours(ks.Problem(7))
    next(iterator)
    iterator.close()
    assert wait_for_threads(before) == before
    with pytest.raises(StopIteration):
        next(iterator)


def test_tours_keeps_its_limit_and_time_limit():
    assert len(list(ks.tours(ks.Problem(5), limit=10))) == 10
    with pytest.raises(ValueError, match="a limit of 0 tours"):
        ks.tours(ks.Problem(5), limit=0)
    with pytest.raises(ValueError, match="finds one tour"):
        ks.tours(ks.Problem(5, clues={1: "a1"}), method="warnsdorff")
    found = []
    with pytest.raises(ks.KnightsatError):
        for tour in ks.tours(ks.Problem(7), method="backtrack", timeout=0.3):
            found.append(tour)
    assert found, "tours came before the time ran out"
    assert list(ks.tours(ks.Problem(4))) == []


def test_puzzle_keeps_the_rules_it_can_and_refuses_the_rest():
    closed = ks.puzzle(ks.Problem(6, closed=True), seed=1)
    assert closed.problem.closed
    ks.verify(closed.solution, ks.Problem(6, closed=True))
    for rules, says in [
        ({"start": "a1"}, "a start"),
        ({"end": "e5"}, "an end"),
        ({"clues": {1: "a1"}}, "clues"),
    ]:
        with pytest.raises(ValueError, match=f"{says} it cannot keep"):
            ks.puzzle(ks.Problem(5, **rules), seed=1)


def test_a_value_of_the_wrong_type_names_its_parameter_and_what_it_takes():
    # PyO3's own words named neither ("'int' object is not an instance of
    # 'str'"); the parameter's name was only in a note of the traceback.
    cases = [
        (lambda: ks.Problem(5, start=5), r"^start: 5 is not a square name such as 'a1'$"),
        (lambda: ks.Problem(5, end=3.5), r"^end: 3\.5 is not a square name"),
        (lambda: ks.Problem(5, closed="yes"), r"^closed: 'yes' is not True or False$"),
        (lambda: ks.Problem.from_ascii(5), r"^text: 5 is not the board drawn in text"),
        (lambda: ks.count(5), r"^problem: 5 is not a knightsat\.Problem"),
        (lambda: ks.solve("8"), r"^problem: '8' is not a knightsat\.Problem"),
        (lambda: ks.encode(None), r"^problem: None is not a knightsat\.Problem"),
        (lambda: ks.verify("a1", 5), r"^problem: 5 is not a knightsat\.Problem"),
        (lambda: ks.puzzle(ks.Problem(5), closed=1), r"^closed: 1 is not True or False$"),
        (lambda: ks.count(ks.Problem(5), method=3), r"^method: 3 is not a method's name"),
        (lambda: ks.count(ks.Problem(5), up_to_symmetry="x"), r"^up_to_symmetry: 'x' is not True"),
        (lambda: ks.solve(ks.Problem(5), solver=1), r"^solver: 1 is not a solver's name"),
        (lambda: ks.solve(ks.Problem(5), timeout="1"), r"^timeout: '1' is not a number of seconds$"),
        (lambda: ks.solve(ks.Problem(5), timeout=True), r"^timeout: True is not a number of seconds$"),
        (lambda: ks.encode(ks.Problem(5), encoding=2), r"^encoding: 2 is not an encoding's name"),
        (lambda: ks.encode(ks.Problem(5), every_tour="no"), r"^every_tour: 'no' is not True or False$"),
        (lambda: ks.decode(5, []), r"^formula: 5 is not a knightsat\.Formula"),
        (lambda: ks.decode(ks.encode(ks.Problem(5)), "a1"), r"^model: 'a1' is not a model"),
        (lambda: ks.encode(ks.Problem(5), encoding="time-indexed").lit(1, 7), r"^square: 7 is not a square"),
        (lambda: ks.encode(ks.Problem(5), encoding="successor").move_lit("a1", 2), r"^to_square: 2 is not"),
    ]
    for call, words in cases:
        with pytest.raises(TypeError, match=words):
            call()
    # None where a default stands is the default, as before.
    assert ks.count(ks.Problem(5), method=None) == ks.count(ks.Problem(5))
    assert ks.Problem(5, closed=None) == ks.Problem(5)
    # The defaults still show in help().
    assert "method='auto'" in ks.count.__text_signature__
    assert "closed=False" in ks.Problem.__text_signature__


def test_listing_tours_by_the_frontier_counter_is_refused_at_the_call():
    # The counter lists no tour: refused by the job's check, before any
    # thread starts, not on the first next().
    with pytest.raises(ValueError, match="frontier"):
        ks.tours(ks.Problem(5), method="frontier")


GRAPHS = [
    ([(1, 2), (2, 3), (3, 4), (4, 1)], 4),
    ([(1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 1), (1, 4), (2, 5)], 6),
    ([(1, 2), (1, 3), (1, 4), (2, 5), (3, 5), (4, 5), (2, 2), (1, 2)], 5),
    ([(1, 2), (3, 4)], 4),
]


@pytest.mark.parametrize("edges, vertices", GRAPHS)
@pytest.mark.parametrize("closed", [False, True])
def test_a_graph_counts_and_solves_as_the_brute_force_does(edges, vertices, closed):
    problem = ks.Problem.from_graph(edges, closed=closed)
    expected = brute.graph_count(edges, vertices, closed=closed)
    assert ks.count(problem) == expected
    tour = ks.solve(problem)
    assert (tour is None) == (expected == 0)
    if tour is not None:
        assert sorted(int(v) for v in tour) == list(range(1, vertices + 1))
        ks.verify(tour, problem)
    assert len(list(ks.tours(problem))) == expected


def test_a_graph_may_be_any_object_with_edges_and_nodes():
    class Graph:
        def edges(self):
            return iter([(1, 2), (2, 3), (3, 1)])

        def nodes(self):
            return [1, 2, 3, 4]

    # Vertex 4 has no edge: no path visits it.
    assert ks.solve(ks.Problem.from_graph(Graph())) is None
    problem = ks.Problem.from_graph(Graph().edges(), start="2", end=3)
    assert ks.solve(problem) == ["2", "1", "3"]


@pytest.mark.parametrize(
    "graph, says",
    [
        ([(0, 1)], "graph: 0 is not a vertex number"),
        ([(1, "x")], "graph: 'x' is not a vertex number"),
        ([(1, 2, 3)], "is not an edge (u, v)"),
        ([], "no vertices"),
    ],
)
def test_a_bad_graph_is_a_value_error_naming_the_parameter(graph, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        ks.Problem.from_graph(graph)


def test_what_needs_a_board_is_refused_for_a_graph():
    problem = ks.Problem.from_graph([(1, 2), (2, 3), (3, 1)])
    with pytest.raises(ValueError, match="needs a board"):
        ks.solve(problem, method="backtrack")
    with pytest.raises(TypeError, match="is not a graph"):
        ks.Problem.from_graph(5)
