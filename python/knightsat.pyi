"""knightsat: the knight's tour as SAT.

Encode a problem into clauses that `PySAT` takes, decode a model into a
verified tour, or solve, count, list, verify and make puzzles with the
library's own solvers (the Rust library the `knightsat` command runs).

Bad input raises `ValueError` (a value of the wrong type `TypeError`,
naming its parameter); other failures raise `KnightsatError`; Ctrl-C
during `solve`, `count`, `tours` or `puzzle` stops the work and
raises `KeyboardInterrupt`.
"""

# The docstrings here are the module's own (`knightsat.X.__doc__`), word
# for word: python/tests/test_docs_agree.py fails when they differ, so
# change both, here and in python/src/lib.rs.

from typing import (
    Any,
    Iterable,
    Dict,
    Iterator,
    List,
    Literal,
    Mapping,
    Optional,
    Protocol,
    Sequence,
    Tuple,
    Union,
    final,
)

# The names the string options take, for type checkers and editors only:
# they are not in the module at run time (import them under
# `typing.TYPE_CHECKING`).

#: What `solve` solves by.
SolveMethod = Literal["auto", "sat", "warnsdorff", "backtrack"]
#: What `count` counts by.
CountMethod = Literal["auto", "sat", "backtrack", "frontier"]
#: What `tours` lists the tours by.
ToursMethod = Literal["auto", "sat", "backtrack"]
#: The SAT encodings (`Formula.encoding`, and what `solve`, `count` and
#: `tours` take).
Encoding = Literal["time-indexed", "successor"]
#: What `encode` and `dimacs` take: an encoding, or `"auto"`, the
#: formula the default route solves.
EncodingOrAuto = Literal["auto", "time-indexed", "successor"]
#: A SAT solver: a built-in one, or any solver program on the PATH
#: (`"kissat"`).
Solver = Union[Literal["varisat", "cadical"], str]
#: Square names: a list, or one string `"a1 c2 ..."`.
SquareNames = Union[Sequence[str], str]
#: The piece's jump: `(1, 2)` (the knight), `[1, 3]` or `"1,3"`.
LeaperSpec = Union[Tuple[int, int], List[int], str]
#: Move numbers (from 1) to square names, or `"N=SQUARE"` texts.
Clues = Union[Mapping[int, str], Sequence[str]]
#: A model: DIMACS literals (PySAT's `get_model()`), or variable to bool.
ModelSpec = Union[Sequence[int], Mapping[int, bool]]

class _VarPool(Protocol):
    """What `encode(vpool=...)` takes: `pysat.formula.IDPool`."""

    def id(self, obj: Any = ...) -> int: ...

__version__: str

class KnightsatError(Exception):
    """A failure of knightsat that is not bad input: a time limit that ran out, a method that gave up, a rejected tour, a solver that failed."""

@final
class Problem:
    """A board and the rules its tour must keep: open or closed, where it
    starts and ends, and clues that pin moves to squares.

    `Problem(8)` is the 8x8 board, `Problem(5, 6)` has 5 ranks and 6 files.
    `holes` names squares that are not there (`["d4", "e5"]`, or one
    string `"d4 e5"`), `leaper` is the piece's jump as `(1, 2)` (the
    knight, the default) or `"1,3"`, `closed` asks for a closed tour,
    `start` and `end` are square names, and `clues` maps move numbers (the
    start is move 1) to square names, `{1: "a1", 10: "c3"}`, or is a list
    of `"N=SQUARE"` strings. Bad input raises `ValueError`.

    A `Problem` is an immutable value: two with the same rules are equal
    and hash alike, `repr` gives the call that makes it again, and `copy`
    and `pickle` keep it.
    """

    def __new__(
        cls,
        rows: int,
        cols: Optional[int] = None,
        *,
        holes: Optional[SquareNames] = None,
        leaper: Optional[LeaperSpec] = None,
        closed: bool = False,
        start: Optional[str] = None,
        end: Optional[str] = None,
        clues: Optional[Clues] = None,
    ) -> "Problem": ...
    @staticmethod
    def from_ascii(
        text: str,
        *,
        leaper: Optional[LeaperSpec] = None,
        closed: bool = False,
        start: Optional[str] = None,
        end: Optional[str] = None,
        clues: Optional[Clues] = None,
    ) -> "Problem":
        """A problem on a board drawn in text: one line per rank, the highest
        first, `.` for a square and `#` for a hole; the other rules as for
        `Problem(...)`."""
    @staticmethod
    def from_graph(
        graph: Union[Iterable[Tuple[int, int]], Any],
        *,
        closed: bool = False,
        start: Optional[Union[int, str]] = None,
        end: Optional[Union[int, str]] = None,
        clues: Optional[Clues] = None,
    ) -> "Problem":
        """A graph instead of a board: a Hamiltonian path of it, or with
        `closed` a cycle. `graph` is an iterable of edges `(u, v)` or any
        object with an `edges()` method, such as a networkx graph (with a
        `nodes()` method too, isolated vertices count); its vertices are
        whole numbers from 1, as in a graph file
        (`networkx.convert_node_labels_to_integers(g, first_label=1)`
        numbers a networkx graph so). Self-loops and repeated edges are read
        as the simple graph they mean. Tours name the vertices by number, as
        strings (`"1"`, `"2"`, ...); `start`, `end` and `clues` name them
        by number too. It is solved and counted by SAT with the successor
        encoding. Bad input raises `ValueError`."""
    @property
    def rows(self) -> int:
        """Ranks of the board."""
    @property
    def cols(self) -> int:
        """Files of the board."""
    @property
    def squares(self) -> int:
        """The squares a tour visits (holes left out)."""
    @property
    def closed(self) -> bool:
        """Whether the tour must be closed."""
    @property
    def start(self) -> Optional[str]:
        """The start square's name, if fixed."""
    @property
    def end(self) -> Optional[str]:
        """The end square's name, if fixed."""
    @property
    def holes(self) -> List[str]:
        """The holes, by name."""
    @property
    def leaper(self) -> Tuple[int, int]:
        """The piece's jump `(a, b)`: `(1, 2)` for the knight."""
    @property
    def clues(self) -> Dict[int, str]:
        """The clues: move number (from 1) to square name."""
    def square_names(self) -> List[str]:
        """The names of the board's squares in index order (rank by rank from
        rank 1, files from a; holes left out)."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Formula:
    """A problem's formula (CNF), with what it takes to read a model back.

    A `Formula` is its clauses: `len(f)` of them, each a list of DIMACS
    literals as `iter(f)` gives them one at a time, which `PySAT` takes as
    they are: `f.to_pysat()`, `pysat.formula.CNF(from_clauses=f.clauses)`
    or `pysat.solvers.Solver(bootstrap_with=f)`. Its variables are
    numbered 1 to `nvars` unless `encode` was given `start_from` or
    `vpool`; `top` is the highest number it uses. `var_map` names the
    encoding's own variables that occur in a clause (a variable the
    encoding left out, because no tour can set it, is not there: `lit`
    and `move_lit` say why): for the time-indexed encoding
    `(move, square) -> var` ("move number `move`, from 1, is on
    `square`"), for the successor encoding `(square, next) -> var` ("the
    move from `square` goes to `next`"), and for its open tours also
    `("first", square)` and `("last", square)`. The other variables
    (Tseytin's, the at-most-one encodings' helpers) have no names.
    `encoding` says which encoding it is.
    """

    def __len__(self) -> int: ...
    def __iter__(self) -> "FormulaClauses": ...
    @property
    def encoding(self) -> Encoding:
        """The encoding's name: `"time-indexed"` or `"successor"` (never
        `"auto"`: the one `encode` chose)."""
    @property
    def problem(self) -> Problem:
        """The problem encoded."""
    def describe_vars(self) -> List[str]:
        """Lines that explain how the variables are numbered, as the DIMACS
        comments say it (numbered from 1, as `dimacs()` has them)."""
    def decode(self, model: ModelSpec) -> List[str]:
        """The tour a model of this formula describes, as square names in
        visiting order, verified against the problem. `model` is a list of
        DIMACS literals (what `PySAT`'s `get_model()` returns) or a dict of
        variable to bool, in the formula's numbering. A model that is no
        tour or gives a variable both values raises `ValueError`, as does
        a variable past `nvars`, unless `encode` was given `start_from` or
        `vpool`: then the model's other variables are ignored."""
    def block(self, tour: SquareNames) -> List[int]:
        """A clause that every model satisfies except those of `tour` (square
        names in visiting order, a list or one string), over the encoding's
        own variables: add it to the solver to look for another tour, as
        the library's own enumeration does. Anything but a tour of the
        problem raises `ValueError` (a clause for a non-tour could remove
        real tours)."""
    def lit(self, move: int, square: str) -> int:
        """The variable "move `move` (from 1) is on `square`" of a
        time-indexed formula (`encode(problem, encoding="time-indexed")`).
        `ValueError` says why there is none: a successor formula, a move or
        square not on the board, or one the encoding fixed false (no tour
        it admits puts the piece there, so no clause holds the variable and
        assuming it would prove nothing)."""
    def move_lit(self, from_square: str, to_square: str) -> int:
        """The variable "the move from `from_square` goes to `to_square`" of
        a successor formula (`encoding="successor"`, or `"auto"` for a
        problem without clues). `ValueError` says why there is none: a
        time-indexed formula, a square not on the board, a jump the leaper
        cannot make, or a move the encoding fixed false (no tour it admits
        makes it)."""
    @property
    def clauses(self) -> List[List[int]]:
        """The clauses, as one list of lists of DIMACS literals (iterating
        over the formula gives them one at a time instead)."""
    @property
    def nvars(self) -> int:
        """The number of variables."""
    @property
    def primary_vars(self) -> int:
        """How many of the variables are the encoding's own (the rest are
        auxiliary)."""
    @property
    def top(self) -> int:
        """The highest variable number the formula uses (`nvars` unless
        `encode` was given `start_from` or `vpool`)."""
    @property
    def var_map(self) -> Dict[Tuple[Union[int, str], str], int]:
        """The encoding's own variables that occur in a clause, by name (see
        the class's documentation)."""
    def to_pysat(self) -> Any:
        """The formula as a `pysat.formula.CNF` (`PySAT` must be installed)."""
    def dimacs(self) -> str:
        """The formula as a DIMACS CNF file's text, with the comments that let
        `knightsat decode` read a solver's answer to it; numbered from 1
        whatever `start_from` or `vpool` gave."""

@final
class FormulaClauses(Iterator[List[int]]):
    """The iterator `iter(formula)` returns: the formula's clauses, one list
    of DIMACS literals at a time."""

    def __iter__(self) -> "FormulaClauses": ...
    def __next__(self) -> List[int]: ...

def encode(
    problem: Problem,
    *,
    encoding: EncodingOrAuto = "time-indexed",
    every_tour: bool = False,
    start_from: Optional[int] = None,
    vpool: Optional[_VarPool] = None,
) -> Formula:
    """Encodes `problem` as CNF. `encoding` is `"time-indexed"` (the
    default, as for the command's `encode`), `"successor"` or `"auto"`.
    The time-indexed encoding has one variable per move number and square
    (`Formula.lit`), which clues pin; the successor encoding has one per
    move (`Formula.move_lit`), its subtours excluded by the formula itself,
    so that every model is a tour. `"auto"` gives the formula the default
    route solves: the successor encoding for a problem without clues (about
    a tenth of the time-indexed formula's size on 20x20), the time-indexed
    one for a problem with clues.

    With `every_tour`, no symmetry breaking: every tour of the problem is
    a model (for counting); without it some tours that are images of
    others are left out. A closed tour with no start, end or clue starts
    on the first square, which loses no tour.

    The variables are numbered 1 to `nvars`, or from `start_from` on, or by
    `vpool` (a `pysat.formula.IDPool`, which hands the formula numbers no
    other of its users has): then the clauses, `var_map`, `lit`,
    `move_lit`, `block` and `decode` all use those numbers, and `decode`
    ignores the model's other variables. `dimacs()` is a file of its own,
    numbered from 1."""

def dimacs(
    problem: Problem, *, encoding: EncodingOrAuto = "time-indexed", every_tour: bool = False
) -> str:
    """The DIMACS CNF text of `problem`, `encode(problem, ...).dimacs()`:
    numbered from 1, with the comments that let `knightsat decode` read a
    solver's answer to it. `encoding` (`"time-indexed"` by default) and
    `every_tour` as for `encode`."""

def decode(formula: Formula, model: ModelSpec) -> List[str]:
    """The tour `model` of `formula` describes, verified (see `Formula.decode`)."""

def solve(
    problem: Problem,
    *,
    method: SolveMethod = "auto",
    encoding: Optional[Encoding] = None,
    solver: Optional[Solver] = None,
    timeout: Optional[float] = None,
    seed: Optional[int] = None,
) -> Optional[List[str]]:
    """Finds a tour: a list of square names in visiting order, verified, or
    `None` when there is none (proved). `method` is `"auto"` (the default
    route, the fastest for the problem), `"sat"`, `"backtrack"` or
    `"warnsdorff"` (which may give up: `KnightsatError`); naming an
    `encoding` (`"time-indexed"`, `"successor"`) or a `solver`
    (`"varisat"`, `"cadical"`, or a solver program on the PATH such as
    `"kissat"`) means SAT. `timeout` is in seconds (`KnightsatError` when
    it runs out); `seed` is the tie-break of Warnsdorff's rule. Ctrl-C
    stops the search and raises `KeyboardInterrupt`."""

def count(
    problem: Problem,
    *,
    method: CountMethod = "auto",
    encoding: Optional[Encoding] = None,
    solver: Optional[Solver] = None,
    limit: Optional[int] = None,
    up_to_symmetry: bool = False,
    jobs: Optional[int] = None,
    timeout: Optional[float] = None,
) -> int:
    """Counts the tours of `problem` (sequences of squares: a closed tour
    counts once per start and direction), or its orbits under the board's
    symmetries with `up_to_symmetry`; at most `limit`. `method` is
    `"auto"`, `"sat"`, `"backtrack"` or `"frontier"`; `encoding`, `solver`
    and `timeout` as for `solve`; `jobs` threads (0 or None: one per core,
    where the route splits its work; a count that lists the tours one by
    one runs one search). Exact to `2**256 - 1` (the frontier counter's
    counts of long boards pass `2**128`). Ctrl-C stops the count and
    raises `KeyboardInterrupt`."""

@final
class Tours(Iterator[List[str]]):
    """The iterator `tours` returns: each tour as the search finds it."""

    def __iter__(self) -> "Tours": ...
    def __next__(self) -> List[str]: ...
    def close(self) -> None:
        """Stops the search now (as leaving a `for` loop does): no thread is
        left running."""

def tours(
    problem: Problem,
    *,
    method: ToursMethod = "auto",
    encoding: Optional[Encoding] = None,
    solver: Optional[Solver] = None,
    limit: Optional[int] = None,
    timeout: Optional[float] = None,
) -> Tours:
    """The tours of `problem`, one at a time as the search finds them: a lazy
    iterator of verified tours (lists of square names), in the order and
    with the rules of `knightsat solve --all` (a closed tour with nothing
    anchored in all its rotations; at most `limit`). `method` is `"auto"`,
    `"sat"` or `"backtrack"`; `encoding`, `solver` and `timeout` as for
    `solve` (a timeout that runs out raises `KnightsatError` after the
    tours found by then). The search runs on a thread of its own, the GIL
    released while it looks for the next tour; stopping the iteration (a
    `break`, `close()`, or dropping the iterator) stops it and leaves
    nothing running, and Ctrl-C raises `KeyboardInterrupt`."""

def verify(tour: SquareNames, problem: Problem) -> None:
    """Checks that `tour` (square names in visiting order, as a list or as
    one string `"a1 c2 ..."`) is a tour of `problem`: every square once,
    each move the piece's, closed if the problem is, its start, end and
    clues kept. Returns `None`; an unknown square raises `ValueError`, a
    tour that breaks a rule `KnightsatError` naming the first it breaks."""

@final
class Puzzle:
    """A puzzle made by `puzzle`: clues with exactly one tour through them."""

    @property
    def problem(self) -> Problem:
        """The puzzle as a problem (its board and clues, closed if the puzzle
        is), to solve or count."""
    @property
    def clues(self) -> Dict[int, str]:
        """The clues: move number (from 1) to square name."""
    @property
    def solution(self) -> List[str]:
        """The one solution, as square names in visiting order."""
    @property
    def untried(self) -> int:
        """Clues that the time limit left untried (0: no clue can go)."""
    def grid(self) -> str:
        """The puzzle as a grid of clue numbers, as `knightsat puzzle` prints it."""
    def solution_grid(self) -> str:
        """The solution as a numbered grid."""

def puzzle(
    problem: Problem,
    *,
    closed: bool = False,
    seed: Optional[int] = None,
    timeout: Optional[float] = None,
) -> Optional[Puzzle]:
    """Makes a puzzle on the board of `problem` (its holes and leaper; closed
    if the problem or `closed` says so; a start, an end or clues raise
    `ValueError`, as the command takes none): clues with exactly one tour
    and no clue that can go. The same `seed` makes the same puzzle. `None`
    when the board has no tour. `timeout` in seconds bounds the whole
    making: when it runs out, the puzzle so far (still with one tour;
    `untried` counts the clues not tried), or `KnightsatError` if no tour
    was found yet. Ctrl-C stops it and raises `KeyboardInterrupt`."""
