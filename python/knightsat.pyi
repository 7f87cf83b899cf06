"""knightsat: the knight's tour as SAT.

Encode a problem into clauses that PySAT takes, decode a model into a
verified tour, or solve, count, verify and make puzzles with the library's
own solvers (the Rust library the ``knightsat`` command runs).

Bad input raises ``ValueError``; other failures raise ``KnightsatError``;
Ctrl-C during ``solve``, ``count`` or ``puzzle`` stops the work and raises
``KeyboardInterrupt``.
"""

from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

__version__: str

class KnightsatError(Exception):
    """A failure that is not bad input: a time limit that ran out, a method
    that gave up, a tour that breaks a rule, a solver that failed."""

class Problem:
    """A board and the rules its tour must keep.

    ``Problem(8)`` is the 8x8 board; ``Problem(5, 6)`` has 5 ranks and 6
    files. ``holes`` names squares that are not there; ``leaper`` is the
    piece's jump, ``(1, 2)`` (the knight, the default) or ``"1,3"``;
    ``closed`` asks for a closed tour; ``start`` and ``end`` are square
    names; ``clues`` maps move numbers (the start is move 1) to squares,
    ``{1: "a1", 10: "c3"}``, or is a list of ``"N=SQUARE"`` strings.
    Raises ``ValueError`` for bad input.
    """

    def __init__(
        self,
        rows: int,
        cols: Optional[int] = None,
        *,
        holes: Union[str, Sequence[str], None] = ...,
        leaper: Union[Tuple[int, int], str, None] = None,
        closed: bool = False,
        start: Optional[str] = None,
        end: Optional[str] = None,
        clues: Union[Mapping[int, str], Sequence[str], None] = None,
    ) -> None: ...
    @staticmethod
    def from_ascii(
        text: str,
        *,
        leaper: Union[Tuple[int, int], str, None] = None,
        closed: bool = False,
        start: Optional[str] = None,
        end: Optional[str] = None,
        clues: Union[Mapping[int, str], Sequence[str], None] = None,
    ) -> "Problem":
        """A problem on a board drawn in text: one line per rank, the
        highest first, ``.`` for a square and ``#`` for a hole."""
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
        """The start square, if fixed."""
    @property
    def end(self) -> Optional[str]:
        """The end square, if fixed."""
    @property
    def holes(self) -> List[str]:
        """The holes, by name."""
    @property
    def leaper(self) -> Tuple[int, int]:
        """The piece's jump: ``(1, 2)`` for the knight."""
    @property
    def clues(self) -> Dict[int, str]:
        """The clues: move number (from 1) to square name."""
    def square_names(self) -> List[str]:
        """The board's squares in index order (rank by rank from rank 1,
        files from a; holes left out)."""

class Formula:
    """A problem's CNF and what it takes to read a model back.

    A ``Formula`` is its clauses: ``len(f)`` of them, each a list of DIMACS
    literals as ``iter(f)`` gives them one at a time, which PySAT takes as
    they are: ``f.to_pysat()``, ``CNF(from_clauses=f.clauses)``,
    ``Solver(bootstrap_with=f)``. Its variables are numbered 1 to ``nvars``
    unless ``encode`` was given ``start_from`` or ``vpool``; ``top`` is the
    highest number it uses. ``var_map`` names the encoding's own variables
    that occur in a clause (one the encoding left out, because no tour can
    set it, is not there: ``lit`` and ``move_lit`` say why): time-indexed
    ``(move, square) -> var`` (move number ``move``, from 1, is on
    ``square``); successor ``(square, next) -> var`` (the move from
    ``square`` goes to ``next``), and for open tours ``("first", square)``
    and ``("last", square)``. The other variables (Tseytin's, the
    at-most-one encodings' helpers) have no names.
    """

    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[List[int]]: ...
    @property
    def clauses(self) -> List[List[int]]:
        """The clauses, as one list of lists of DIMACS literals (iterating
        over the formula gives them one at a time instead)."""
    @property
    def nvars(self) -> int:
        """The number of variables."""
    @property
    def top(self) -> int:
        """The highest variable number the formula uses (``nvars`` unless
        ``encode`` was given ``start_from`` or ``vpool``)."""
    @property
    def primary_vars(self) -> int:
        """The encoding's own variables (the rest are auxiliary)."""
    @property
    def var_map(self) -> Dict[Tuple[Union[int, str], str], int]:
        """The encoding's own variables that occur in a clause, by name
        (see the class's documentation)."""
    def lit(self, move: int, square: str) -> int:
        """The variable "move ``move`` (from 1) is on ``square``" of a
        time-indexed formula. ``ValueError`` says why there is none: a move
        or square not on the board, or one the encoding fixed false (no
        tour it admits puts the knight there, so no clause holds the
        variable and assuming it would prove nothing)."""
    def move_lit(self, from_square: str, to_square: str) -> int:
        """The variable "the move from ``from_square`` goes to
        ``to_square``" of a successor formula. ``ValueError`` says why
        there is none: a square not on the board, a jump the leaper cannot
        make, or a move the encoding fixed false (no tour it admits makes
        it)."""
    def to_pysat(self) -> Any:
        """The formula as a ``pysat.formula.CNF`` (PySAT must be installed)."""
    @property
    def encoding(self) -> str:
        """``"time-indexed"`` or ``"successor"``."""
    @property
    def problem(self) -> Problem:
        """The problem encoded."""
    def describe_vars(self) -> List[str]:
        """How the variables are numbered, as the DIMACS comments say it."""
    def decode(self, model: Union[Sequence[int], Mapping[int, bool]]) -> List[str]:
        """The tour a model describes, as square names in visiting order,
        verified; ``model`` is a list of DIMACS literals (PySAT's
        ``get_model()``) or a dict of variable to bool. Raises
        ``ValueError`` for a model that is no tour, gives a variable both
        values or names no variable of the formula."""
    def block(self, tour: Union[Sequence[str], str]) -> List[int]:
        """A clause every model satisfies except those of ``tour``, over
        the encoding's own variables: add it to look for another tour.
        Raises ``ValueError`` unless ``tour`` is a tour of the problem (a
        clause for anything else could remove real tours)."""
    def dimacs(self) -> str:
        """The DIMACS CNF text, with the comments ``knightsat decode`` reads."""

class Puzzle:
    """Clues with exactly one tour through them, made by ``puzzle``."""

    @property
    def problem(self) -> Problem:
        """The puzzle as a problem (its clues only), to solve."""
    @property
    def clues(self) -> Dict[int, str]:
        """Move number (from 1) to square name."""
    @property
    def solution(self) -> List[str]:
        """The one solution, as square names in visiting order."""
    @property
    def untried(self) -> int:
        """Clues the time limit left untried (0: no clue can go)."""
    def grid(self) -> str:
        """The puzzle as a grid of clue numbers, as ``knightsat puzzle`` prints it."""
    def solution_grid(self) -> str:
        """The solution as a numbered grid."""

def encode(
    problem: Problem,
    *,
    encoding: str = "time-indexed",
    every_tour: bool = False,
    start_from: Optional[int] = None,
    vpool: Optional[Any] = None,
) -> Formula:
    """Encodes ``problem`` as CNF. ``encoding`` is ``"time-indexed"`` or
    ``"successor"`` (subtours excluded by the formula, so every model is a
    tour). With ``every_tour``, no symmetry breaking: every tour is a model
    (for counting). A closed tour with nothing fixed starts on the first
    square, which loses no tour.

    The variables are numbered 1 to ``nvars``, or from ``start_from`` on,
    or by ``vpool`` (a ``pysat.formula.IDPool``, which hands the formula
    numbers no other of its users has): then the clauses, ``var_map``,
    ``lit``, ``move_lit``, ``block`` and ``decode`` all use those numbers,
    and ``decode`` ignores the model's other variables. ``dimacs()`` is a
    file of its own, numbered from 1."""

def dimacs(
    problem: Problem, *, encoding: str = "time-indexed", every_tour: bool = False
) -> str:
    """The DIMACS CNF text of ``problem``, as ``knightsat encode`` writes it."""

def decode(formula: Formula, model: Union[Sequence[int], Mapping[int, bool]]) -> List[str]:
    """The verified tour ``model`` of ``formula`` describes (``Formula.decode``)."""

def solve(
    problem: Problem,
    *,
    method: str = "auto",
    encoding: Optional[str] = None,
    solver: Optional[str] = None,
    timeout: Optional[float] = None,
    seed: Optional[int] = None,
) -> Optional[List[str]]:
    """A tour as square names in visiting order, or ``None`` when there is
    none (proved). ``method``: ``"auto"``, ``"sat"``, ``"backtrack"`` or
    ``"warnsdorff"`` (may give up: ``KnightsatError``); naming an
    ``encoding`` or a ``solver`` (``"varisat"``, ``"cadical"`` or a program)
    means SAT. ``timeout`` in seconds; ``seed`` for Warnsdorff's rule.
    Ctrl-C raises ``KeyboardInterrupt``."""

class Tours(Iterator[List[str]]):
    """The iterator ``tours`` returns: each tour as it is found."""

    def __iter__(self) -> "Tours": ...
    def __next__(self) -> List[str]: ...
    def close(self) -> None:
        """Stops the search now (as leaving a ``for`` loop does): no thread
        is left running."""

def tours(
    problem: Problem,
    *,
    method: str = "auto",
    encoding: Optional[str] = None,
    solver: Optional[str] = None,
    limit: Optional[int] = None,
    timeout: Optional[float] = None,
) -> Tours:
    """The tours of ``problem``, one at a time as the search finds them:
    verified lists of square names, in the order and with the rules of
    ``knightsat solve --all`` (a closed tour with nothing anchored in all
    its rotations; at most ``limit``). ``method``, ``encoding``,
    ``solver`` and ``timeout`` as for ``solve`` (a timeout raises
    ``KnightsatError`` after the tours found by then). The search runs on
    a thread of its own with the GIL released; leaving the loop stops it
    and leaves nothing running; Ctrl-C raises ``KeyboardInterrupt``."""

def count(
    problem: Problem,
    *,
    method: str = "auto",
    encoding: Optional[str] = None,
    solver: Optional[str] = None,
    limit: Optional[int] = None,
    up_to_symmetry: bool = False,
    jobs: Optional[int] = None,
    timeout: Optional[float] = None,
) -> int:
    """The number of tours (a closed tour counts once per start and
    direction), or of orbits with ``up_to_symmetry``; at most ``limit``.
    ``method``: ``"auto"``, ``"sat"``, ``"backtrack"`` or ``"frontier"``;
    ``jobs`` threads (None, the default, or 0: one per core where the
    route splits its work; a count that lists tours one by one runs one
    search). Exact to 2**256 (the frontier counter's counts of long boards pass 2**128). Ctrl-C raises
    ``KeyboardInterrupt``."""

def verify(tour: Union[Sequence[str], str], problem: Problem) -> None:
    """Checks a tour (square names, or one string ``"a1 c2 ..."``) against
    ``problem``; an unknown square raises ``ValueError``, a broken rule
    ``KnightsatError``."""

def puzzle(
    problem: Problem,
    *,
    closed: bool = False,
    seed: Optional[int] = None,
    timeout: Optional[float] = None,
) -> Optional[Puzzle]:
    """A puzzle on the board of ``problem`` (its holes and leaper; closed
    if the problem or ``closed`` says so): clues with exactly one tour,
    none of which can go; ``None`` when the board has no tour. A start,
    an end or clues raise ``ValueError``, as the command takes none. The
    same ``seed`` makes the same puzzle."""
