"""Clauses from knightsat, solved by PySAT's solvers, decoded and verified."""

import pathlib

import pytest
from pysat.formula import CNF, IDPool
from pysat.solvers import Solver

import knightsat as ks

SOLVERS = ["glucose4", "cadical153", "minisat22"]

PROBLEMS = [
    ks.Problem(5),
    ks.Problem(6, closed=True),
    ks.Problem(3, 4),
    ks.Problem(5, start="c3"),
    ks.Problem(6, 6, holes=["a1"], start="b1"),
    ks.Problem(5, clues={1: "a1", 25: "e5"}),
    ks.Problem(4, 5, leaper=(1, 2), end="a1"),
]


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("encoding", ["time-indexed", "successor"])
@pytest.mark.parametrize("problem", PROBLEMS, ids=repr)
def test_a_pysat_model_decodes_to_a_verified_tour(solver, encoding, problem):
    formula = ks.encode(problem, encoding=encoding)
    with Solver(name=solver, bootstrap_with=formula.clauses) as sat:
        assert sat.solve()
        tour = formula.decode(sat.get_model())
    assert len(tour) == problem.squares
    assert len(set(tour)) == len(tour)
    ks.verify(tour, problem)
    if problem.start:
        assert tour[0] == problem.start
    for move, square in problem.clues.items():
        assert tour[move - 1] == square


def test_cnf_takes_the_clauses_and_nvars_covers_them():
    formula = ks.encode(ks.Problem(5))
    cnf = CNF(from_clauses=formula.clauses)
    assert cnf.nv <= formula.nvars
    assert max(abs(lit) for clause in formula.clauses for lit in clause) <= formula.nvars
    assert len(cnf.clauses) == len(formula.clauses)


def test_a_board_without_tours_is_unsatisfiable():
    formula = ks.encode(ks.Problem(4))
    with Solver(name="glucose4", bootstrap_with=formula.clauses) as sat:
        assert not sat.solve()


def test_the_var_map_names_the_tour():
    problem = ks.Problem(5)
    formula = ks.encode(problem, encoding="time-indexed")
    with Solver(name="cadical153", bootstrap_with=formula.clauses) as sat:
        assert sat.solve()
        model = set(lit for lit in sat.get_model() if lit > 0)
        tour = formula.decode(sat.get_model())
    for move, square in enumerate(tour, start=1):
        assert formula.var_map[(move, square)] in model
    assert all(1 <= var <= formula.primary_vars for var in formula.var_map.values())


def test_the_successor_var_map_names_the_moves():
    problem = ks.Problem(3, 4)
    formula = ks.encode(problem, encoding="successor")
    with Solver(name="glucose4", bootstrap_with=formula.clauses) as sat:
        assert sat.solve()
        model = set(lit for lit in sat.get_model() if lit > 0)
        tour = formula.decode(sat.get_model())
    for here, there in zip(tour, tour[1:]):
        assert formula.var_map[(here, there)] in model
    assert formula.var_map[("first", tour[0])] in model
    assert formula.var_map[("last", tour[-1])] in model


def test_a_model_as_a_dict_decodes_too():
    formula = ks.encode(ks.Problem(5))
    with Solver(name="minisat22", bootstrap_with=formula.clauses) as sat:
        sat.solve()
        model = sat.get_model()
    as_dict = {abs(lit): lit > 0 for lit in model}
    assert formula.decode(as_dict) == ks.decode(formula, model)


def pysat_tours(problem, encoding="time-indexed", solver="glucose4"):
    """Every tour as a model of the formula kept whole (`every_tour`),
    each blocked once found; no tour is found twice."""
    formula = ks.encode(problem, encoding=encoding, every_tour=True)
    found = set()
    with Solver(name=solver, bootstrap_with=formula.clauses) as sat:
        while sat.solve():
            tour = formula.decode(sat.get_model())
            assert tuple(tour) not in found
            found.add(tuple(tour))
            sat.add_clause(formula.block(tour))
    return found


def pysat_count(problem, encoding="time-indexed", solver="glucose4"):
    """How many tours `pysat_tours` lists."""
    return len(pysat_tours(problem, encoding, solver))


@pytest.mark.parametrize(
    "problem",
    [ks.Problem(3, 4), ks.Problem(5, start="a1"), ks.Problem(4, 5, end="d4"), ks.Problem(3, 3)],
    ids=repr,
)
@pytest.mark.parametrize("encoding", ["time-indexed", "successor"])
def test_pysat_counts_the_tours_the_library_counts(problem, encoding):
    assert pysat_count(problem, encoding) == ks.count(problem)


@pytest.mark.parametrize("encoding", ["time-indexed", "successor"])
def test_block_refuses_what_is_not_a_tour_of_the_problem(encoding):
    problem = ks.Problem(5, start="a1")
    formula = ks.encode(problem, encoding=encoding, every_tour=True)
    # The squares in board order: no knight moves; before the fix the
    # successor encoding blocked two real moves with it.
    with pytest.raises(ValueError, match="not a tour of this problem"):
        formula.block(problem.square_names())
    # A real tour of another start is no tour of this problem either.
    other = ks.solve(ks.Problem(5, start="c3"))
    with pytest.raises(ValueError, match="not a tour of this problem"):
        formula.block(other)
    with pytest.raises(ValueError, match="not a tour of this problem"):
        formula.block(["a1"])
    # What the refused clause would have removed: enumerating with it
    # found 248 tours, not the 304 from a1.
    assert pysat_count(problem, encoding) == 304


@pytest.mark.parametrize("encoding", ["time-indexed", "successor"])
def test_decode_refuses_a_variable_given_both_values(encoding):
    formula = ks.encode(ks.Problem(5), encoding=encoding)
    with Solver(name="minisat22", bootstrap_with=formula.clauses) as sat:
        assert sat.solve()
        model = sat.get_model()
    positive = next(lit for lit in model if lit > 0)
    for contradictory in (model + [-positive], [-positive] + model):
        with pytest.raises(ValueError, match=f"variable {positive} is given both values"):
            formula.decode(contradictory)
        with pytest.raises(ValueError, match="both values"):
            ks.decode(formula, contradictory)


def test_decode_names_what_is_wrong_with_a_model():
    formula = ks.encode(ks.Problem(5))
    with Solver(name="minisat22", bootstrap_with=formula.clauses) as sat:
        assert sat.solve()
        model = sat.get_model()
    for bad, says in [
        (model + [10**30], "not a variable's number"),
        (model + [formula.nvars + 1], "names no variable"),
        ({-3: True}, "-3 names no variable"),
        ({3: "yes"}, "not True or False"),
        ({"a1": True}, "not a variable's number"),
        (model + ["x"], "not a variable's number"),
        (model + [True], "a bool"),
        (42, "a list of DIMACS literals"),
    ]:
        with pytest.raises(ValueError, match=says):
            formula.decode(bad)


# Variables that compose with the user's own (issue 49).


def occurring(formula):
    return {abs(lit) for clause in formula for lit in clause}


@pytest.mark.parametrize("encoding", ["time-indexed", "successor"])
def test_var_map_holds_only_variables_that_occur(encoding):
    formula = ks.encode(ks.Problem(5), encoding=encoding, every_tour=True)
    assert set(formula.var_map.values()) <= occurring(formula)


def test_a_pruned_variable_is_not_offered_and_lit_says_why():
    # b1 cannot be move 13 of a 5x5 tour: the encoding fixes x(13, b1)
    # false and no clause holds it; assuming it used to "find" a tour.
    problem = ks.Problem(5)
    formula = ks.encode(problem, encoding="time-indexed", every_tour=True)
    assert (13, "b1") not in formula.var_map
    with pytest.raises(ValueError, match="b1 cannot be move 13"):
        formula.lit(13, "b1")
    assert ks.solve(ks.Problem(5, clues={13: "b1"})) is None
    assert formula.lit(1, "a1") == formula.var_map[(1, "a1")]


def test_lit_and_move_lit_refuse_what_is_not_a_variable():
    timed = ks.encode(ks.Problem(5), encoding="time-indexed")
    moves = ks.encode(ks.Problem(5), encoding="successor")
    with pytest.raises(ValueError, match="use move_lit"):
        moves.lit(1, "a1")
    with pytest.raises(ValueError, match="use lit"):
        timed.move_lit("a1", "b3")
    with pytest.raises(ValueError, match="moves 1 to 25, not 26"):
        timed.lit(26, "a1")
    with pytest.raises(ValueError, match="move"):
        timed.lit(0, "a1")
    with pytest.raises(ValueError, match="z9"):
        timed.lit(1, "z9")
    with pytest.raises(ValueError, match="a1 to b2 is not a move of the knight"):
        moves.move_lit("a1", "b2")
    assert moves.move_lit("a1", "b3") == moves.var_map[("a1", "b3")]


def test_a_formula_is_its_clauses_one_at_a_time():
    formula = ks.encode(ks.Problem(6), encoding="successor")
    clauses = formula.clauses
    assert len(formula) == len(clauses) > 0
    assert list(formula) == clauses
    assert formula.to_pysat().clauses == clauses
    assert CNF(from_clauses=formula.clauses).nv == formula.top


def test_start_from_numbers_the_variables_after_the_users_own():
    problem = ks.Problem(5, start="a1")
    own = ks.encode(problem, encoding="successor", every_tour=True)
    shifted = ks.encode(problem, encoding="successor", every_tour=True, start_from=101)
    assert [[lit + 100 if lit > 0 else lit - 100 for lit in c] for c in own] == list(shifted)
    assert shifted.top == own.nvars + 100
    assert shifted.var_map == {name: var + 100 for name, var in own.var_map.items()}
    # Enumerate with blocking clauses in the shifted numbering, a variable
    # of the user's own (1) in every model: every tour once.
    assert len(verified_tours(shifted, problem, user_clauses=[[1]])) == 304
    with pytest.raises(ValueError, match="give one"):
        ks.encode(problem, start_from=5, vpool=IDPool())
    with pytest.raises(ValueError, match="start_from"):
        ks.encode(problem, start_from=0)


def test_two_formulas_and_the_users_variables_share_one_idpool():
    pool = IDPool()
    mine = pool.id("mine")
    first = ks.encode(ks.Problem(5, start="a1"), vpool=pool)
    second = ks.encode(ks.Problem(3, 4), encoding="successor", vpool=pool)
    assert mine not in occurring(first) | occurring(second)
    assert not occurring(first) & occurring(second)
    assert pool.top >= max(first.top, second.top)
    with pytest.raises(ValueError, match="id"):
        ks.encode(ks.Problem(5), vpool=object())


def test_a_pool_that_hands_out_a_number_twice_or_past_32_bits_is_refused():
    class Always7:
        def id(self, key):
            return 7

    class Twice:
        def __init__(self):
            self.n = 0

        def id(self, key):
            self.n += 1
            return (self.n + 1) // 2

    class Huge:
        def __init__(self):
            self.n = 2**40

        def id(self, key):
            self.n += 1
            return self.n

    for pool in [Always7(), Twice()]:
        with pytest.raises(ValueError, match=r"^vpool: .* gave \d+ for two of the formula's variables"):
            ks.encode(ks.Problem(5), vpool=pool)
    with pytest.raises(ValueError, match=r"^vpool: .* gave 1099511627777, past 2\*\*31 - 1"):
        ks.encode(ks.Problem(5), vpool=Huge())
    # The largest number a literal holds is taken, as start_from takes it.
    last = ks.encode(ks.Problem(3, 4), encoding="successor", start_from=2**31 - 1 - 200)
    top = IDPool(start_from=last.top - last.nvars + 1)
    assert ks.encode(ks.Problem(3, 4), encoding="successor", vpool=top).top == last.top


@pytest.mark.parametrize("solver", ["glucose4", "cadical153"])
def test_a_user_constraint_on_top_of_the_formula(solver):
    # The docs' recipe: b1 is not among the first 10 moves.
    problem = ks.Problem(5, start="a1")
    pool = IDPool()
    formula = ks.encode(problem, vpool=pool)
    cnf = formula.to_pysat()
    for move in range(1, 11):
        try:
            cnf.append([-formula.lit(move, "b1")])
        except ValueError:
            pass  # the encoding already rules it out
    with Solver(name=solver, bootstrap_with=cnf) as sat:
        assert sat.solve()
        tour = formula.decode(sat.get_model())
    ks.verify(tour, problem)
    assert tour.index("b1") >= 10


def test_the_default_encoding_is_the_commands():
    # The command's `encode` writes the time-indexed encoding when none is
    # named (its golden files, which tests/cli.rs checks byte for byte),
    # and so does Python's: the same DIMACS text, comments and all.
    fixtures = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "golden"
    for problem, golden in [
        (ks.Problem(3, 4), "3x4-open.cnf"),
        (ks.Problem(5, 6, closed=True), "5x6-closed.cnf"),
    ]:
        assert ks.encode(problem).encoding == "time-indexed"
        assert ks.dimacs(problem) == (fixtures / golden).read_text()


def test_auto_encodes_as_the_default_route_solves():
    # The rule (solve::auto::formula_config): the complete successor
    # encoding without clues, the time-indexed one with clues.
    plain = ks.Problem(6)
    auto = ks.encode(plain, encoding="auto")
    assert auto.encoding == "successor"
    assert auto.dimacs() == ks.encode(plain, encoding="successor").dimacs()
    clued = ks.Problem(6, clues={5: "c3"})
    assert ks.encode(clued, encoding="auto").encoding == "time-indexed"
    assert (
        ks.encode(clued, encoding="auto").dimacs()
        == ks.encode(clued, encoding="time-indexed").dimacs()
    )
    assert ks.dimacs(plain, encoding="auto") == auto.dimacs()
    # Every model of the auto formula is a tour (its subtours are
    # excluded by the formula itself), counted as the oracle does.
    problem = ks.Problem(5, start="a1")
    formula = ks.encode(problem, encoding="auto", every_tour=True)
    assert len(verified_tours(formula, problem)) == 304


def test_the_auto_formula_of_a_large_board_is_small():
    formula = ks.encode(ks.Problem(20), encoding="auto")
    timed = ks.encode(ks.Problem(20), encoding="time-indexed")
    assert formula.encoding == "successor"
    assert formula.nvars * 10 < timed.nvars
    assert len(formula) * 10 < len(timed)


def verified_tours(formula, problem, user_clauses=()):
    """Every tour of `formula` (with the user's own clauses on top), each
    verified against `problem`, by CaDiCaL and `block`."""
    tours = set()
    with Solver(name="cadical153", bootstrap_with=formula) as sat:
        for clause in user_clauses:
            sat.add_clause(clause)
        while sat.solve():
            tour = formula.decode(sat.get_model())
            ks.verify(tour, problem)
            tours.add(tuple(tour))
            sat.add_clause(formula.block(tour))
    return tours
