//! The Python module `knightsat`: a thin layer over the library crate
//! `knightsat`, the same code the command runs. Python values become
//! library values here (names of squares, encodings, methods), library
//! results become Python values (lists of square names, ints), and
//! library errors become Python exceptions: [`ValueError`](PyValueError)
//! for bad input, `knightsat.KnightsatError` for the rest, and
//! `KeyboardInterrupt` when Ctrl-C stops a long solve or count.
//!
//! Long work (solve, count, puzzle) runs on a thread of its own with the
//! GIL released, while the calling thread looks for signals every
//! `SIGNAL_POLL`; on Ctrl-C it raises the request's
//! [`Interrupt`], waits for the work to end, and raises `KeyboardInterrupt`.

use knightsat::error::RunError;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{mpsc, Mutex};
use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt, PyTypeError, PyValueError};
use pyo3::prelude::*;

use knightsat::cnf::Formula as Clauses;
use knightsat::cnf_file::write_cnf;
use knightsat::count::{CountJob, CountReport, TourNumber};
use knightsat::encoding::decode::tour_from_model;
use knightsat::encoding::{
    block_tour, Encoding, EncodingConfig, Model, Subtours, Successor, TimeIndexed,
};
use knightsat::error::{Error, ErrorClass};
use knightsat::model::board::{Board, Leaper};
use knightsat::model::problem::{parse_clue, Problem as LibProblem};
use knightsat::model::verify::verify as verify_squares;
use knightsat::puzzle::{generate, puzzle_grid, puzzle_rules, seed_or_random};
use knightsat::render::board_grid;
use knightsat::runtime::interrupt::Interrupt;
use knightsat::sat::Backend;
use knightsat::solve::auto::formula_config;
use knightsat::solve::{Method, Outcome, Request, SolveJob};
use knightsat::tour::{square_names_in, Tour};

create_exception!(
    knightsat,
    KnightsatError,
    PyException,
    "A failure of knightsat that is not bad input: a time limit that ran out, a method that gave up, a rejected tour, a solver that failed."
);

/// How often the calling thread looks for Ctrl-C while the work runs.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// A library error as a Python exception: bad input (the class the
/// command exits 2 for) is a `ValueError`, an interrupt is
/// `KeyboardInterrupt`, the rest `KnightsatError`.
fn py_error(error: &Error) -> PyErr {
    if matches!(error, Error::Run(RunError::Interrupted)) {
        return PyKeyboardInterrupt::new_err("interrupted");
    }
    match error.class() {
        ErrorClass::BadInput => PyValueError::new_err(error.to_string()),
        ErrorClass::Failure | ErrorClass::Timeout | ErrorClass::GaveUp => {
            KnightsatError::new_err(error.to_string())
        }
    }
}

/// A library result as a Python one.
fn py_result<T, E: Into<Error>>(result: Result<T, E>) -> PyResult<T> {
    result.map_err(|error| py_error(&error.into()))
}

/// `result`, a `ValueError` in it worded as one of the parameter `name`
/// (the library's words name the value, not the parameter it came in).
fn for_parameter<T>(py: Python<'_>, name: &str, result: PyResult<T>) -> PyResult<T> {
    result.map_err(|error| {
        if !error.is_instance_of::<PyValueError>(py) {
            return error;
        }
        let message = error.value(py).to_string();
        if message.starts_with(&format!("{name}: ")) || message.starts_with(&format!("{name} ")) {
            return error;
        }
        PyValueError::new_err(format!("{name}: {message}"))
    })
}

/// Runs `work` on a thread of its own with the GIL released, looking for
/// signals on this thread meanwhile: when a signal handler raises (Ctrl-C
/// raises `KeyboardInterrupt`), `interrupt` is raised, the work is waited
/// for, and the handler's exception is raised. Nothing is left running.
fn interruptible<T: Send>(
    py: Python<'_>,
    interrupt: &Interrupt,
    work: impl FnOnce() -> Result<T, Error> + Send,
) -> PyResult<T> {
    let ended = py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = mpsc::channel::<()>();
            let worker = scope.spawn(move || {
                let result = work();
                let _ = done.send(());
                result
            });
            let mut signalled = None;
            while let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(SIGNAL_POLL) {
                // A closure: the method's own lifetime is not general enough.
                #[allow(clippy::redundant_closure_for_method_calls)]
                let signals = Python::attach(|py| py.check_signals());
                if let Err(raised) = signals {
                    interrupt.raise();
                    signalled = Some(raised);
                    break;
                }
            }
            let result = worker.join();
            (result, signalled)
        })
    });
    match ended {
        (_, Some(raised)) => Err(raised),
        (Ok(result), None) => py_result(result),
        (Err(_), None) => Err(KnightsatError::new_err(
            "internal error: the work panicked (please report it)",
        )),
    }
}

/// A board and the rules its tour must keep: open or closed, where it
/// starts and ends, and clues that pin moves to squares.
///
/// `Problem(8)` is the 8x8 board, `Problem(5, 6)` has 5 ranks and 6 files.
/// `holes` names squares that are not there (`["d4", "e5"]`, or one
/// string `"d4 e5"`), `leaper` is the piece's jump as `(1, 2)` (the
/// knight, the default) or `"1,3"`, `closed` asks for a closed tour,
/// `start` and `end` are square names, and `clues` maps move numbers (the
/// start is move 1) to square names, `{1: "a1", 10: "c3"}`, or is a list
/// of `"N=SQUARE"` strings. Bad input raises `ValueError`.
///
/// A `Problem` is an immutable value: two with the same rules are equal
/// and hash alike, `repr` gives the call that makes it again, and `copy`
/// and `pickle` keep it.
#[pyclass(module = "knightsat", frozen)]
#[derive(Clone)]
struct Problem {
    inner: LibProblem,
}

#[pymethods]
impl Problem {
    // PyO3 hands over owned values; the lists are read, not kept.
    #[new]
    #[allow(clippy::needless_pass_by_value)]
    #[pyo3(signature = (rows, cols=None, *, holes=None, leaper=None, closed=None, start=None, end=None, clues=None))]
    #[pyo3(
        text_signature = "(rows, cols=None, *, holes=None, leaper=None, closed=False, start=None, end=None, clues=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        rows: &Bound<'_, PyAny>,
        cols: Option<&Bound<'_, PyAny>>,
        holes: Option<&Bound<'_, PyAny>>,
        leaper: Option<&Bound<'_, PyAny>>,
        closed: Option<&Bound<'_, PyAny>>,
        start: Option<&Bound<'_, PyAny>>,
        end: Option<&Bound<'_, PyAny>>,
        clues: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Problem> {
        let size = |value: &Bound<'_, PyAny>, name: &str| {
            let size = whole_number(value, name, 0, "a board's number of ranks or files")?;
            Ok::<usize, PyErr>(usize::try_from(size).unwrap_or(usize::MAX))
        };
        let rows_n = size(rows, "rows")?;
        let cols_n = match cols {
            Some(cols) => size(cols, "cols")?,
            None => rows_n,
        };
        let board = py_result(Board::new(rows_n, cols_n).map_err(Error::from))?;
        let holes = match holes {
            Some(holes) if !holes.is_none() => square_names_of(holes, "holes")?,
            _ => Vec::new(),
        };
        Problem::on(&board, &holes, leaper, closed, start, end, clues)
    }

    /// A problem on a board drawn in text: one line per rank, the highest
    /// first, `.` for a square and `#` for a hole; the other rules as for
    /// `Problem(...)`.
    #[staticmethod]
    #[pyo3(signature = (text, *, leaper=None, closed=None, start=None, end=None, clues=None))]
    #[pyo3(
        text_signature = "(text, *, leaper=None, closed=False, start=None, end=None, clues=None)"
    )]
    fn from_ascii(
        text: &Bound<'_, PyAny>,
        leaper: Option<&Bound<'_, PyAny>>,
        closed: Option<&Bound<'_, PyAny>>,
        start: Option<&Bound<'_, PyAny>>,
        end: Option<&Bound<'_, PyAny>>,
        clues: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Problem> {
        let text =
            text_arg(Some(text), "text", "the board drawn in text (a str)")?.ok_or_else(|| {
                PyTypeError::new_err("text: None is not the board drawn in text (a str)")
            })?;
        let board = Python::attach(|py| {
            for_parameter(
                py,
                "text",
                py_result(Board::from_ascii(&text).map_err(Error::from)),
            )
        })?;
        Problem::on(&board, &[], leaper, closed, start, end, clues)
    }

    /// Ranks of the board.
    #[getter]
    fn rows(&self) -> usize {
        self.inner.board().rows()
    }

    /// Files of the board.
    #[getter]
    fn cols(&self) -> usize {
        self.inner.board().cols()
    }

    /// The squares a tour visits (holes left out).
    #[getter]
    fn squares(&self) -> usize {
        self.inner.board().squares()
    }

    /// Whether the tour must be closed.
    #[getter]
    fn closed(&self) -> bool {
        self.inner.is_closed()
    }

    /// The start square's name, if fixed.
    #[getter]
    fn start(&self) -> Option<String> {
        self.inner
            .start()
            .map(|square| self.inner.board().name(square))
    }

    /// The end square's name, if fixed.
    #[getter]
    fn end(&self) -> Option<String> {
        self.inner
            .end()
            .map(|square| self.inner.board().name(square))
    }

    /// The holes, by name.
    #[getter]
    fn holes(&self) -> Vec<String> {
        self.inner
            .board()
            .holes()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// The piece's jump `(a, b)`: `(1, 2)` for the knight.
    #[getter]
    fn leaper(&self) -> (usize, usize) {
        self.inner.board().leaper().lengths()
    }

    /// The clues: move number (from 1) to square name.
    #[getter]
    fn clues(&self) -> HashMap<usize, String> {
        let board = self.inner.board();
        self.inner
            .clues()
            .iter()
            .map(|clue| (clue.step + 1, board.name(clue.square)))
            .collect()
    }

    /// The names of the board's squares in index order (rank by rank from
    /// rank 1, files from a; holes left out).
    fn square_names(&self) -> Vec<String> {
        let board = self.inner.board();
        (0..board.squares())
            .map(|square| board.name(square))
            .collect()
    }

    /// The call that makes this problem again:
    /// `knightsat.Problem(5, 5, start='a1')`, only what differs from the
    /// defaults after the size.
    fn __repr__(&self) -> String {
        let board = self.inner.board();
        let mut text = format!("knightsat.Problem({}, {}", board.rows(), board.cols());
        let holes = self.holes();
        if !holes.is_empty() {
            let _ = write!(text, ", holes={}", python_list(&holes));
        }
        let leaper = self.leaper();
        if leaper != (1, 2) {
            let _ = write!(text, ", leaper=({}, {})", leaper.0, leaper.1);
        }
        if self.inner.is_closed() {
            text.push_str(", closed=True");
        }
        for (name, square) in [("start", self.start()), ("end", self.end())] {
            if let Some(square) = square {
                let _ = write!(text, ", {name}='{square}'");
            }
        }
        let mut clues: Vec<(usize, String)> = self.clues().into_iter().collect();
        clues.sort();
        if !clues.is_empty() {
            let listed: Vec<String> = clues
                .iter()
                .map(|(number, square)| format!("{number}: '{square}'"))
                .collect();
            let _ = write!(text, ", clues={{{}}}", listed.join(", "));
        }
        text.push(')');
        text
    }

    /// Equal when every rule is: the board, holes, leaper, closed, start,
    /// end and clues.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Problem>()
            .is_ok_and(|other| other.get().inner == self.inner)
    }

    /// Hashed by what [`__eq__`](Self::__eq__) compares, so that a problem
    /// is a dict key by value.
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.__repr__().hash(&mut hasher);
        hasher.finish()
    }

    /// What `pickle` and `copy` make it again from: the size, and the
    /// rest by keyword.
    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, pyo3::types::PyTuple>,
        Bound<'py, pyo3::types::PyDict>,
    )> {
        let board = self.inner.board();
        let args = pyo3::types::PyTuple::new(py, [board.rows(), board.cols()])?;
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("holes", self.holes())?;
        kwargs.set_item("leaper", self.leaper())?;
        kwargs.set_item("closed", self.inner.is_closed())?;
        kwargs.set_item("start", self.start())?;
        kwargs.set_item("end", self.end())?;
        kwargs.set_item("clues", self.clues())?;
        Ok((args, kwargs))
    }
}

/// Names as a Python list's repr: `['c3', 'd4']`.
fn python_list(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("'{name}'")).collect();
    format!("[{}]", quoted.join(", "))
}

impl Problem {
    /// The problem on `board` with the given holes, leaper and rules.
    fn on(
        board: &Board,
        holes: &[String],
        leaper: Option<&Bound<'_, PyAny>>,
        closed: Option<&Bound<'_, PyAny>>,
        start: Option<&Bound<'_, PyAny>>,
        end: Option<&Bound<'_, PyAny>>,
        clues: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Problem> {
        let closed = flag_arg(closed, "closed")?;
        let start = text_arg(start, "start", A_SQUARE)?;
        let end = text_arg(end, "end", A_SQUARE)?;
        // Each parameter's errors are worded as that parameter's.
        Python::attach(|py| {
            let leaper = for_parameter(
                py,
                "leaper",
                leaper.map_or(Ok(Leaper::default()), leaper_of),
            )?;
            let board = for_parameter(
                py,
                "holes",
                py_result(board.with_holes(holes).map_err(Error::from)),
            )?
            .with_leaper(leaper);
            let square = |name: Option<String>, parameter: &str| -> PyResult<Option<usize>> {
                let parsed = name
                    .map(|name| py_result(board.parse_square(&name).map_err(Error::from)))
                    .transpose();
                for_parameter(py, parameter, parsed)
            };
            let (start, end) = (square(start, "start")?, square(end, "end")?);
            let texts = clues.map_or(Ok(Vec::new()), clue_texts)?;
            let clues = texts
                .iter()
                .map(|text| parse_clue(&board, text).map_err(Error::from))
                .collect::<Result<Vec<_>, _>>();
            let clues = for_parameter(py, "clues", py_result(clues))?;
            let problem = (|| -> Result<LibProblem, Error> {
                Ok(LibProblem::new(board.clone())
                    .closed(closed)
                    .with_start(start)?
                    .with_end(end)?
                    .with_clues(clues)?)
            })();
            Ok(Problem {
                inner: py_result(problem)?,
            })
        })
    }
}

/// The encoding configuration named, the formula complete or its
/// subtours left to a loop (`subtours`), as the command's options give it.
fn config(encoding: &str, subtours: Subtours) -> PyResult<EncodingConfig> {
    EncodingConfig::by_name(encoding, subtours).ok_or_else(|| {
        PyValueError::new_err(format!(
            "encoding: unknown encoding '{encoding}' (expected one of: {})",
            EncodingConfig::NAMES.join(", ")
        ))
    })
}

/// The method named.
fn method(name: &str) -> PyResult<Method> {
    Method::ALL
        .into_iter()
        .find(|method| method.name() == name)
        .ok_or_else(|| {
            let names: Vec<_> = Method::ALL.iter().map(|method| method.name()).collect();
            PyValueError::new_err(format!(
                "method: unknown method '{name}' (expected one of: {})",
                names.join(", ")
            ))
        })
}

/// What a call asks of a job, as the command's options would: the method
/// named, whether an encoding or solver was named (the jobs then choose
/// SAT for `auto`), and the request (the encoding's subtours lazy, the
/// solver by name, the library's defaults for what is not named, the time
/// limit in seconds, armed to be interrupted).
struct Asked {
    method: Method,
    sat_named: bool,
    request: Request,
}

/// What `method_name` (`"auto"` for none), `encoding`, `solver` and
/// `timeout` ask, each checked as its parameter.
fn asked(
    method_name: Option<&Bound<'_, PyAny>>,
    encoding: Option<&Bound<'_, PyAny>>,
    solver: Option<&Bound<'_, PyAny>>,
    timeout: Option<&Bound<'_, PyAny>>,
) -> PyResult<Asked> {
    let method_name = text_arg(method_name, "method", "a method's name (a str)")?;
    let method_name = method_name.as_deref().unwrap_or("auto");
    let encoding = text_arg(encoding, "encoding", "an encoding's name (a str)")?;
    let encoding = encoding.as_deref();
    let solver = text_arg(solver, "solver", "a solver's name (a str)")?;
    let solver = solver.as_deref();
    let timeout = seconds_arg(timeout, "timeout")?;
    let mut request = Request {
        timeout: time_limit_of(timeout)?,
        interrupt: Interrupt::new(),
        ..Request::default()
    };
    if let Some(encoding) = encoding {
        request.config = config(encoding, Subtours::FOR_SOLVING)?;
    }
    if let Some(solver) = solver {
        request.backend = Python::attach(|py| {
            for_parameter(
                py,
                "solver",
                py_result(Backend::from_name(solver, Vec::new())),
            )
        })?;
    }
    Ok(Asked {
        method: method(method_name)?,
        sat_named: encoding.is_some() || solver.is_some(),
        request,
    })
}

/// A problem's formula (CNF), with what it takes to read a model back.
///
/// A `Formula` is its clauses: `len(f)` of them, each a list of DIMACS
/// literals as `iter(f)` gives them one at a time, which `PySAT` takes as
/// they are: `f.to_pysat()`, `pysat.formula.CNF(from_clauses=f.clauses)`
/// or `pysat.solvers.Solver(bootstrap_with=f)`. Its variables are
/// numbered 1 to `nvars` unless `encode` was given `start_from` or
/// `vpool`; `top` is the highest number it uses. `var_map` names the
/// encoding's own variables that occur in a clause (a variable the
/// encoding left out, because no tour can set it, is not there: `lit`
/// and `move_lit` say why): for the time-indexed encoding
/// `(move, square) -> var` ("move number `move`, from 1, is on
/// `square`"), for the successor encoding `(square, next) -> var` ("the
/// move from `square` goes to `next`"), and for its open tours also
/// `("first", square)` and `("last", square)`. The other variables
/// (Tseytin's, the at-most-one encodings' helpers) have no names.
/// `encoding` says which encoding it is.
#[pyclass(module = "knightsat", frozen)]
struct Formula {
    encoding: Box<dyn Encoding>,
    /// Every clause's literals one after another, numbered as the user sees them.
    literals: Vec<i64>,
    /// Where each clause ends in `literals`.
    ends: Vec<usize>,
    /// The number of variables.
    #[pyo3(get)]
    nvars: usize,
    /// How many of the variables are the encoding's own (the rest are
    /// auxiliary).
    #[pyo3(get)]
    primary_vars: usize,
    /// The encoding's own variables that occur, by name.
    names: HashMap<VarName, i64>,
    /// `names` as the dict `var_map` gives, built once.
    var_map: Py<pyo3::types::PyDict>,
    /// The highest variable number the formula uses.
    top: i64,
    /// How the formula's variables are numbered for the user.
    numbering: Numbering,
}

/// A name of one of the encoding's own variables.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum VarName {
    /// Move `step` (from 0) is on the square.
    Move(usize, usize),
    /// The move from the first square goes to the second.
    Step(usize, usize),
    /// The open tour starts on the square.
    First(usize),
    /// The open tour ends on the square.
    Last(usize),
}

/// The numbers the user sees for the formula's variables: its own (1 to
/// N), or those `start_from` or an `IDPool` gave them.
enum Numbering {
    Own,
    Given {
        /// The user's number for each variable (index 0 unused).
        outer: Vec<i64>,
        /// The formula's variable for each of the user's numbers it uses.
        inner: HashMap<i64, usize>,
    },
}

impl Numbering {
    /// The user's literal for the formula's literal `lit`.
    fn outer(&self, lit: isize) -> i64 {
        match self {
            Numbering::Own => lit as i64,
            Numbering::Given { outer, .. } => outer[lit.unsigned_abs()] * lit.signum() as i64,
        }
    }

    /// The formula's literal for the user's literal `lit`, or `None` when
    /// it names a variable of the user's own (never in the formula's own
    /// numbering: there every number is the formula's or refused).
    fn inner(&self, lit: i64) -> Option<i64> {
        match self {
            Numbering::Own => Some(lit),
            Numbering::Given { inner, .. } => {
                inner.get(&lit.abs()).map(|&var| var as i64 * lit.signum())
            }
        }
    }
}

#[pymethods]
impl Formula {
    /// The encoding's name: `"time-indexed"` or `"successor"` (never
    /// `"auto"`: the one `encode` chose).
    #[getter]
    fn encoding(&self) -> &'static str {
        self.encoding.name()
    }

    /// The problem encoded.
    #[getter]
    fn problem(&self) -> Problem {
        Problem {
            inner: self.encoding.problem().clone(),
        }
    }

    /// Lines that explain how the variables are numbered, as the DIMACS
    /// comments say it (numbered from 1, as `dimacs()` has them).
    fn describe_vars(&self) -> Vec<String> {
        self.encoding.describe_vars()
    }

    /// The tour a model of this formula describes, as square names in
    /// visiting order, verified against the problem. `model` is a list of
    /// DIMACS literals (what `PySAT`'s `get_model()` returns) or a dict of
    /// variable to bool, in the formula's numbering. A model that is no
    /// tour or gives a variable both values raises `ValueError`, as does
    /// a variable past `nvars`, unless `encode` was given `start_from` or
    /// `vpool`: then the model's other variables are ignored.
    fn decode(&self, model: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        // Text is iterable too, but never a model.
        if model.is_instance_of::<pyo3::types::PyString>()
            || model.is_instance_of::<pyo3::types::PyBytes>()
        {
            return Err(PyTypeError::new_err(format!(
                "model: {} is not a model: give PySAT's get_model() (a list of literals) or a dict of variable to bool",
                shown_value(model)
            )));
        }
        let model = match &self.numbering {
            Numbering::Own => model_of(model, self.nvars)?,
            Numbering::Given { .. } => {
                let literals = literals_of(model, "")?;
                let mut given = HashMap::with_capacity(literals.len());
                for &lit in literals.iter().filter(|&&lit| lit != 0) {
                    if given.insert(lit.abs(), lit > 0) == Some(lit < 0) {
                        return Err(PyValueError::new_err(format!(
                            "model: variable {} is given both values",
                            lit.abs()
                        )));
                    }
                }
                let own = literals
                    .into_iter()
                    .filter_map(|lit| self.numbering.inner(lit));
                py_result(Model::from_dimacs(own.collect::<Vec<_>>(), self.nvars))?
            }
        };
        let tour = Python::attach(|py| {
            for_parameter(
                py,
                "model",
                py_result(tour_from_model(&*self.encoding, &model, Some(self.nvars))),
            )
        })?;
        Ok(tour.names())
    }

    /// A clause that every model satisfies except those of `tour` (square
    /// names in visiting order, a list or one string), over the encoding's
    /// own variables: add it to the solver to look for another tour, as
    /// the library's own enumeration does. Anything but a tour of the
    /// problem raises `ValueError` (a clause for a non-tour could remove
    /// real tours).
    fn block(&self, tour: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
        let board = self.encoding.problem().board();
        let squares = square_names_of(tour, "tour")?
            .into_iter()
            .map(|name| board.parse_square(&name).map_err(Error::from))
            .collect::<Result<Vec<_>, _>>();
        let squares = Python::attach(|py| for_parameter(py, "tour", py_result(squares)))?;
        let clause = py_result(block_tour(&*self.encoding, &squares))?;
        Ok(clause
            .iter()
            .map(|lit| self.numbering.outer(lit.to_dimacs()))
            .collect())
    }

    /// The variable "move `move` (from 1) is on `square`" of a
    /// time-indexed formula (`encode(problem, encoding="time-indexed")`).
    /// `ValueError` says why there is none: a successor formula, a move or
    /// square not on the board, or one the encoding fixed false (no tour
    /// it admits puts the piece there, so no clause holds the variable and
    /// assuming it would prove nothing).
    #[pyo3(name = "lit")]
    fn move_on(&self, r#move: &Bound<'_, PyAny>, square: &Bound<'_, PyAny>) -> PyResult<i64> {
        let square = text_arg(Some(square), "square", A_SQUARE)?
            .ok_or_else(|| PyTypeError::new_err(format!("square: None is not {A_SQUARE}")))?;
        let square = square.as_str();
        if self.encoding.name() != "time-indexed" {
            return Err(PyValueError::new_err(
                "lit: this formula is the successor encoding, whose variables are moves from one square to another: use move_lit",
            ));
        }
        let problem = self.encoding.problem();
        let squares = problem.board().squares() as u64;
        let number = whole_number(r#move, "move", 1, "a move number")?;
        if number > squares {
            return Err(PyValueError::new_err(format!(
                "move: a tour of {squares} squares has moves 1 to {squares}, not {number}"
            )));
        }
        let at = Python::attach(|py| {
            for_parameter(
                py,
                "square",
                py_result(problem.board().parse_square(square).map_err(Error::from)),
            )
        })?;
        self.names
            .get(&VarName::Move(number as usize - 1, at))
            .copied()
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "lit: {square} cannot be move {number} of a tour this formula admits ({}): the encoding fixed it false, so no clause holds the variable",
                    problem.kind()
                ))
            })
    }

    /// The variable "the move from `from_square` goes to `to_square`" of
    /// a successor formula (`encoding="successor"`, or `"auto"` for a
    /// problem without clues). `ValueError` says why there is none: a
    /// time-indexed formula, a square not on the board, a jump the leaper
    /// cannot make, or a move the encoding fixed false (no tour it admits
    /// makes it).
    fn move_lit(
        &self,
        from_square: &Bound<'_, PyAny>,
        to_square: &Bound<'_, PyAny>,
    ) -> PyResult<i64> {
        let square = |value: &Bound<'_, PyAny>, name: &str| {
            text_arg(Some(value), name, A_SQUARE)?
                .ok_or_else(|| PyTypeError::new_err(format!("{name}: None is not {A_SQUARE}")))
        };
        let (from_square, to_square) = (
            square(from_square, "from_square")?,
            square(to_square, "to_square")?,
        );
        let (from_square, to_square) = (from_square.as_str(), to_square.as_str());
        if self.encoding.name() != "successor" {
            return Err(PyValueError::new_err(
                "move_lit: this formula is the time-indexed encoding, whose variables say where each move is: use lit",
            ));
        }
        let problem = self.encoding.problem();
        let board = problem.board();
        let (from, to) = Python::attach(|py| {
            let parse = |name: &str, square: &str| {
                for_parameter(
                    py,
                    name,
                    py_result(board.parse_square(square).map_err(Error::from)),
                )
            };
            Ok::<_, PyErr>((
                parse("from_square", from_square)?,
                parse("to_square", to_square)?,
            ))
        })?;
        if let Some(&var) = self.names.get(&VarName::Step(from, to)) {
            return Ok(var);
        }
        if board.moves(from).any(|square| square == to) {
            Err(PyValueError::new_err(format!(
                "move_lit: no tour this formula admits ({}) goes from {from_square} to {to_square}: the encoding fixed the move false, so it has no variable",
                problem.kind()
            )))
        } else {
            Err(PyValueError::new_err(format!(
                "move_lit: {from_square} to {to_square} is not a move of the {}",
                board.leaper().name()
            )))
        }
    }

    /// The clauses, as one list of lists of DIMACS literals (iterating
    /// over the formula gives them one at a time instead).
    #[getter]
    fn clauses(&self) -> Vec<Vec<i64>> {
        (0..self.ends.len())
            .map(|index| self.clause(index).to_vec())
            .collect()
    }

    /// The highest variable number the formula uses (`nvars` unless
    /// `encode` was given `start_from` or `vpool`).
    #[getter]
    fn top(&self) -> i64 {
        self.top
    }

    /// The encoding's own variables that occur in a clause, by name (see
    /// the class's documentation).
    #[getter]
    fn var_map(&self, py: Python<'_>) -> Py<pyo3::types::PyDict> {
        self.var_map.clone_ref(py)
    }

    /// The formula as a `pysat.formula.CNF` (`PySAT` must be installed).
    fn to_pysat<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let cnf = py.import("pysat.formula")?.getattr("CNF")?;
        let kwargs = pyo3::types::PyDict::new(py);
        // A list: CNF keeps (a deep copy of) what it is given as its clauses.
        kwargs.set_item("from_clauses", slf.get().clauses())?;
        cnf.call((), Some(&kwargs))
    }

    fn __len__(&self) -> usize {
        self.ends.len()
    }

    fn __iter__(slf: &Bound<'_, Self>) -> FormulaClauses {
        FormulaClauses {
            formula: slf.clone().unbind(),
            next: 0,
        }
    }

    /// The formula as a DIMACS CNF file's text, with the comments that let
    /// `knightsat decode` read a solver's answer to it; numbered from 1
    /// whatever `start_from` or `vpool` gave.
    fn dimacs(&self) -> PyResult<String> {
        let mut text = Vec::new();
        py_result(write_cnf(&*self.encoding, &mut text))?;
        Ok(String::from_utf8(text).expect("DIMACS is ASCII"))
    }

    fn __repr__(&self) -> String {
        format!(
            "<knightsat.Formula {} for the {} ({}), {} variables>",
            self.encoding.name(),
            self.encoding.problem().board(),
            self.encoding.problem().kind(),
            self.nvars
        )
    }
}

/// A whole number given to the parameter `name`, `min` or more; a
/// `ValueError` naming the parameter and what it takes otherwise (a bool,
/// a float, a negative number, one past 2**64 - 1).
fn whole_number(value: &Bound<'_, PyAny>, name: &str, min: u64, what: &str) -> PyResult<u64> {
    let refuse = || {
        PyValueError::new_err(format!(
            "{name}: {} is not {what} (a whole number from {min} to 2**64 - 1)",
            shown_value(value)
        ))
    };
    number_not_bool::<u64>(value)
        .filter(|&number| number >= min)
        .ok_or_else(refuse)
}

/// `value` as a number of type `T`, unless it is a `bool` (an `int` to
/// Python, never a count or a time here) or not such a number.
fn number_not_bool<T: for<'a, 'py> FromPyObject<'a, 'py>>(value: &Bound<'_, PyAny>) -> Option<T> {
    if value.is_instance_of::<pyo3::types::PyBool>() {
        return None;
    }
    value.extract().ok()
}

/// [`whole_number`] for a parameter that may be `None`.
fn optional_whole_number(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
    min: u64,
    what: &str,
) -> PyResult<Option<u64>> {
    value
        .filter(|value| !value.is_none())
        .map(|value| whole_number(value, name, min, what))
        .transpose()
}

/// The text given to the parameter `name` (`None` for none), or a
/// `TypeError` naming it and what it `takes`: `PyO3`'s own says only
/// "'int' object is not an instance of 'str'".
fn text_arg(value: Option<&Bound<'_, PyAny>>, name: &str, takes: &str) -> PyResult<Option<String>> {
    let Some(value) = value.filter(|value| !value.is_none()) else {
        return Ok(None);
    };
    value
        .extract::<String>()
        .map(Some)
        .map_err(|_| PyTypeError::new_err(format!("{name}: {} is not {takes}", shown_value(value))))
}

/// The flag given to the parameter `name` (`False` for none), or a
/// `TypeError` naming it: only `True` or `False`.
fn flag_arg(value: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<bool> {
    let Some(value) = value.filter(|value| !value.is_none()) else {
        return Ok(false);
    };
    value
        .cast::<pyo3::types::PyBool>()
        .map(pyo3::types::PyBoolMethods::is_true)
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "{name}: {} is not True or False",
                shown_value(value)
            ))
        })
}

/// Seconds given to the parameter `name` (`None` for no limit): an `int`
/// or a `float`; a `TypeError` naming it otherwise.
fn seconds_arg(value: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<f64>> {
    let Some(value) = value.filter(|value| !value.is_none()) else {
        return Ok(None);
    };
    let refuse = || {
        PyTypeError::new_err(format!(
            "{name}: {} is not a number of seconds",
            shown_value(value)
        ))
    };
    number_not_bool::<f64>(value).map(Some).ok_or_else(refuse)
}

/// The `Problem` given to the parameter `problem`, or a `TypeError` saying
/// how to make one.
fn problem_arg<'py>(value: &Bound<'py, PyAny>) -> PyResult<PyRef<'py, Problem>> {
    value.extract::<PyRef<'py, Problem>>().map_err(|_| {
        PyTypeError::new_err(format!(
            "problem: {} is not a knightsat.Problem (make one with Problem(8) or Problem.from_ascii(...))",
            shown_value(value)
        ))
    })
}

/// What a square name parameter takes.
const A_SQUARE: &str = "a square name such as 'a1'";

/// The leaper `leaper=` names: `(a, b)` (any pair of whole numbers) or
/// the text `"a,b"`.
fn leaper_of(value: &Bound<'_, PyAny>) -> PyResult<Leaper> {
    if let Ok(text) = value.extract::<String>() {
        return py_result(text.parse().map_err(Error::from));
    }
    let refuse = || {
        PyValueError::new_err(format!(
            "leaper: {} is not a leaper: give two whole numbers, (1, 2) for the knight, or the text \"1,2\"",
            shown_value(value)
        ))
    };
    let items = value
        .try_iter()
        .map_err(|_| refuse())?
        .collect::<PyResult<Vec<_>>>()
        .map_err(|_| refuse())?;
    let [a, b] = items.as_slice() else {
        return Err(refuse());
    };
    let length = |item: &Bound<'_, PyAny>| whole_number(item, "leaper", 0, "a leap's length");
    let (a, b) = (
        length(a).map_err(|_| refuse())?,
        length(b).map_err(|_| refuse())?,
    );
    let (a, b) = (usize::try_from(a), usize::try_from(b));
    let (Ok(a), Ok(b)) = (a, b) else {
        return Err(refuse());
    };
    py_result(Leaper::new(a, b).map_err(Error::from))
}

/// The clues `clues=` gives, as `N=SQUARE` texts: a dict of move numbers
/// to square names, or a list of such texts.
fn clue_texts(value: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(dict) = value.cast::<pyo3::types::PyDict>() {
        let mut pairs = Vec::with_capacity(dict.len());
        for (number, square) in dict.iter() {
            let refuse_number = || {
                PyValueError::new_err(format!(
                    "clues: {} is not a move number (from 1)",
                    shown_value(&number)
                ))
            };
            if number.is_instance_of::<pyo3::types::PyBool>() {
                return Err(refuse_number());
            }
            let move_number: i64 = number.extract().map_err(|_| refuse_number())?;
            let square: String = square.extract().map_err(|_| {
                PyValueError::new_err(format!(
                    "clues: move {move_number} is given {}, not a square's name",
                    shown_value(&square)
                ))
            })?;
            pairs.push((move_number, square));
        }
        pairs.sort();
        return Ok(pairs
            .into_iter()
            .map(|(number, square)| format!("{number}={square}"))
            .collect());
    }
    value.extract::<Vec<String>>().map_err(|_| {
        PyValueError::new_err(format!(
            "clues: {} is not clues: give a dict {{move: square}} or a list of \"N=SQUARE\" texts",
            shown_value(value)
        ))
    })
}

/// A time limit in seconds, as the library takes it; a `ValueError`
/// naming `timeout` otherwise.
fn time_limit_of(timeout: Option<f64>) -> PyResult<Option<Duration>> {
    timeout
        .map(|seconds| {
            knightsat::runtime::deadline::time_limit(seconds)
                .map_err(|error| PyValueError::new_err(format!("timeout: {error}")))
        })
        .transpose()
}

/// The literals `model` gives: a list of DIMACS literals (`PySAT`'s
/// `get_model()`; a 0 only ends a line) or a dict from variable numbers to
/// `bool`s. Anything else is a `ValueError` saying so, ending with `note`
/// (which variables the formula has, where that is the rule).
fn literals_of(model: &Bound<'_, PyAny>, note: &str) -> PyResult<Vec<i64>> {
    let number = |item: &Bound<'_, PyAny>, what: &str| -> PyResult<i64> {
        if item.is_instance_of::<pyo3::types::PyBool>() {
            return Err(PyValueError::new_err(format!(
                "model: {what} {item} is a bool, not a literal"
            )));
        }
        item.extract::<i64>()
            .ok()
            .filter(|&lit| lit != i64::MIN)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "model: {what} {} is not a variable's number{note}",
                    shown_value(item)
                ))
            })
    };
    if let Ok(dict) = model.cast::<pyo3::types::PyDict>() {
        let mut literals = Vec::with_capacity(dict.len());
        for (key, value) in dict.iter() {
            let var = number(&key, "the key")?;
            let value = value.extract::<bool>().map_err(|_| {
                PyValueError::new_err(format!(
                    "model: variable {var} is given {}, not True or False",
                    shown_value(&value)
                ))
            })?;
            if var <= 0 {
                return Err(PyValueError::new_err(format!(
                    "model: {var} names no variable{note}"
                )));
            }
            literals.push(if value { var } else { -var });
        }
        return Ok(literals);
    }
    let items = model.try_iter().map_err(|_| {
        PyValueError::new_err(
            "model: a list of DIMACS literals (as PySAT's get_model() gives) or a dict {variable: bool}",
        )
    })?;
    items.map(|item| number(&item?, "the literal")).collect()
}

/// The model `model` gives for a formula of `vars` variables numbered 1
/// to `vars` (see [`literals_of`]): a variable given both values, or a
/// number that names no variable, is a `ValueError` saying so.
fn model_of(model: &Bound<'_, PyAny>, vars: usize) -> PyResult<Model> {
    let literals = literals_of(model, &format!(": the formula has variables 1 to {vars}"))?;
    py_result(Model::from_dimacs(literals, vars))
}

/// A value as an error shows it: its repr, cut short.
fn shown_value(value: &Bound<'_, PyAny>) -> String {
    let repr = value
        .repr()
        .map_or_else(|_| "?".to_string(), |repr| repr.to_string());
    if repr.chars().count() > 40 {
        format!("{}…", repr.chars().take(40).collect::<String>())
    } else {
        repr
    }
}

impl Formula {
    /// Clause `index`'s literals.
    fn clause(&self, index: usize) -> &[i64] {
        let start = if index == 0 { 0 } else { self.ends[index - 1] };
        &self.literals[start..self.ends[index]]
    }
}

/// The iterator `iter(formula)` returns: the formula's clauses, one list
/// of DIMACS literals at a time.
#[pyclass(module = "knightsat")]
struct FormulaClauses {
    formula: Py<Formula>,
    next: usize,
}

#[pymethods]
impl FormulaClauses {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> Option<Vec<i64>> {
        let formula = self.formula.bind(py).get();
        let clause = (self.next < formula.ends.len()).then(|| formula.clause(self.next).to_vec());
        self.next += 1;
        clause
    }
}

/// The encoding's own variables by name, with the formula's numbers.
fn var_names(problem: &LibProblem, config: &EncodingConfig) -> PyResult<HashMap<VarName, usize>> {
    let board = problem.board();
    let mut names = HashMap::new();
    match config {
        EncodingConfig::TimeIndexed(config) => {
            let encoding = py_result(TimeIndexed::new(problem, *config))?;
            let vars = encoding.vars();
            for step in 0..board.squares() {
                for square in 0..board.squares() {
                    names.insert(
                        VarName::Move(step, square),
                        vars.x(step, square).to_dimacs() as usize,
                    );
                }
            }
        }
        EncodingConfig::Successor(config) => {
            let encoding = py_result(Successor::new(problem, *config))?;
            let moves = encoding.moves();
            for square in 0..board.squares() {
                for next in moves.neighbours(square) {
                    if let Some(var) = moves.step(square, next) {
                        names.insert(VarName::Step(square, next), var.to_dimacs() as usize);
                    }
                }
                if !problem.is_closed() {
                    names.insert(
                        VarName::First(square),
                        moves.first(square).to_dimacs() as usize,
                    );
                    names.insert(
                        VarName::Last(square),
                        moves.last(square).to_dimacs() as usize,
                    );
                }
            }
        }
    }
    Ok(names)
}

/// `names` as the dict `Formula.var_map` gives, in the order of the
/// variables.
fn var_map_dict<'py>(
    py: Python<'py>,
    board: &Board,
    names: &HashMap<VarName, i64>,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let name = |square| board.name(square);
    let map = pyo3::types::PyDict::new(py);
    let mut named: Vec<_> = names.iter().collect();
    named.sort_by_key(|&(_, &var)| var.abs());
    for (key, &var) in named {
        match *key {
            VarName::Move(step, square) => map.set_item((step + 1, name(square)), var)?,
            VarName::Step(from, to) => map.set_item((name(from), name(to)), var)?,
            VarName::First(square) => map.set_item(("first", name(square)), var)?,
            VarName::Last(square) => map.set_item(("last", name(square)), var)?,
        }
    }
    Ok(map)
}

/// How `encode` numbers the formula's `vars` variables: its own numbers,
/// from `start_from` on, or each from `vpool.id(...)` (`PySAT`'s `IDPool`,
/// or anything with such a method) under a key of this formula's own.
fn numbering(
    py: Python<'_>,
    vars: usize,
    start_from: Option<&Bound<'_, PyAny>>,
    vpool: Option<&Bound<'_, PyAny>>,
) -> PyResult<Numbering> {
    let start_from = optional_whole_number(start_from, "start_from", 1, "a variable number")?;
    let vpool = vpool.filter(|vpool| !vpool.is_none());
    let outer: Vec<i64> = match (start_from, vpool) {
        (None, None) => return Ok(Numbering::Own),
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err(
                "start_from and vpool both number the variables: give one",
            ))
        }
        (Some(first), None) => {
            let first = i64::try_from(first)
                .ok()
                .filter(|&first| first.checked_add(vars as i64).is_some_and(|top| top <= i64::from(i32::MAX)))
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "start_from: {first} leaves no room for the formula's {vars} variables below 2**31"
                    ))
                })?;
            std::iter::once(0)
                .chain((0..vars as i64).map(|var| first + var))
                .collect()
        }
        (None, Some(vpool)) => {
            let id = vpool.getattr("id").map_err(|_| {
                PyValueError::new_err(format!(
                    "vpool: {} has no id() method: give a pysat.formula.IDPool",
                    shown_value(vpool)
                ))
            })?;
            // A key no other formula or user object can equal.
            let token = py.import("builtins")?.getattr("object")?.call0()?;
            let mut outer = Vec::with_capacity(vars + 1);
            outer.push(0);
            let mut given = std::collections::HashSet::with_capacity(vars);
            for var in 1..=vars {
                let number = id.call1(((&token, var),))?;
                let number =
                    whole_number(&number, "vpool", 1, "a variable number from vpool.id()")?;
                // The numbers `start_from` may give: literals are 32-bit.
                let number = i64::try_from(number)
                    .ok()
                    .filter(|&n| n <= i64::from(i32::MAX))
                    .ok_or_else(|| {
                        PyValueError::new_err(format!(
                            "vpool: {} gave {number}, past 2**31 - 1, the largest variable number",
                            shown_value(vpool)
                        ))
                    })?;
                if !given.insert(number) {
                    return Err(PyValueError::new_err(format!(
                        "vpool: {} gave {number} for two of the formula's variables: a pool hands each number out once (give a pysat.formula.IDPool)",
                        shown_value(vpool)
                    )));
                }
                outer.push(number);
            }
            outer
        }
    };
    let inner = outer
        .iter()
        .enumerate()
        .skip(1)
        .map(|(var, &number)| (number, var))
        .collect();
    Ok(Numbering::Given { outer, inner })
}

/// Encodes `problem` as CNF. `encoding` is `"auto"` (the default: the
/// formula the default route solves), `"successor"` or `"time-indexed"`.
/// The successor encoding has one variable per move (`Formula.move_lit`),
/// its subtours excluded by the formula itself, so that every model is a
/// tour; the time-indexed encoding has one per move number and square
/// (`Formula.lit`), which clues pin. `"auto"` picks the successor
/// encoding for a problem without clues and the time-indexed one for a
/// problem with clues: name `"time-indexed"` to use `lit` on any problem.
///
/// With `every_tour`, no symmetry breaking: every tour of the problem is
/// a model (for counting); without it some tours that are images of
/// others are left out. A closed tour with no start, end or clue starts
/// on the first square, which loses no tour.
///
/// The variables are numbered 1 to `nvars`, or from `start_from` on, or by
/// `vpool` (a `pysat.formula.IDPool`, which hands the formula numbers no
/// other of its users has): then the clauses, `var_map`, `lit`,
/// `move_lit`, `block` and `decode` all use those numbers, and `decode`
/// ignores the model's other variables. `dimacs()` is a file of its own,
/// numbered from 1.
#[pyfunction]
#[pyo3(signature = (problem, *, encoding=None, every_tour=None, start_from=None, vpool=None))]
#[pyo3(
    text_signature = "(problem, *, encoding='auto', every_tour=False, start_from=None, vpool=None)"
)]
fn encode(
    py: Python<'_>,
    problem: &Bound<'_, PyAny>,
    encoding: Option<&Bound<'_, PyAny>>,
    every_tour: Option<&Bound<'_, PyAny>>,
    start_from: Option<&Bound<'_, PyAny>>,
    vpool: Option<&Bound<'_, PyAny>>,
) -> PyResult<Formula> {
    let problem = problem_arg(problem)?;
    let encoding = text_arg(encoding, "encoding", "an encoding's name (a str)")?;
    let every_tour = flag_arg(every_tour, "every_tour")?;
    let mut config = match encoding.as_deref().unwrap_or("auto") {
        "auto" => formula_config(&problem.inner),
        name => config(name, Subtours::FOR_WRITING)?,
    };
    if every_tour {
        config = config.keeping_every_tour();
    }
    let problem = &problem.inner;
    let prepared = py_result(config.prepare(problem))?;
    let mut clauses = Clauses::default();
    prepared.encode(&mut clauses);
    let nvars = clauses.vars.max(prepared.primary_vars());
    let numbering = numbering(py, nvars, start_from, vpool)?;
    let mut occurs = vec![false; nvars + 1];
    let mut literals = Vec::new();
    let mut ends = Vec::with_capacity(clauses.clauses.len());
    for clause in &clauses.clauses {
        for lit in clause {
            occurs[lit.var().to_dimacs() as usize] = true;
            literals.push(numbering.outer(lit.to_dimacs()));
        }
        ends.push(literals.len());
    }
    drop(clauses);
    let names = var_names(problem, &config)?
        .into_iter()
        .filter(|&(_, var)| occurs[var])
        .map(|(name, var)| (name, numbering.outer(var as isize)))
        .collect();
    Ok(Formula {
        literals,
        ends,
        nvars,
        primary_vars: prepared.primary_vars(),
        var_map: var_map_dict(py, problem.board(), &names)?.unbind(),
        top: match &numbering {
            Numbering::Own => nvars as i64,
            Numbering::Given { outer, .. } => outer.iter().copied().max().unwrap_or(0),
        },
        names,
        numbering,
        encoding: prepared,
    })
}

/// The DIMACS CNF text of `problem`, `encode(problem, ...).dimacs()`:
/// numbered from 1, with the comments that let `knightsat decode` read a
/// solver's answer to it. `encoding` (`"auto"` by default) and
/// `every_tour` as for `encode`.
#[pyfunction]
#[pyo3(signature = (problem, *, encoding=None, every_tour=None))]
#[pyo3(text_signature = "(problem, *, encoding='auto', every_tour=False)")]
fn dimacs(
    py: Python<'_>,
    problem: &Bound<'_, PyAny>,
    encoding: Option<&Bound<'_, PyAny>>,
    every_tour: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    encode(py, problem, encoding, every_tour, None, None)?.dimacs()
}

/// The tour `model` of `formula` describes, verified (see `Formula.decode`).
#[pyfunction]
fn decode(formula: &Bound<'_, PyAny>, model: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let formula = formula.extract::<PyRef<'_, Formula>>().map_err(|_| {
        PyTypeError::new_err(format!(
            "formula: {} is not a knightsat.Formula (encode(problem) makes one)",
            shown_value(formula)
        ))
    })?;
    formula.decode(model)
}

/// Finds a tour: a list of square names in visiting order, verified, or
/// `None` when there is none (proved). `method` is `"auto"` (the default
/// route, the fastest for the problem), `"sat"`, `"backtrack"` or
/// `"warnsdorff"` (which may give up: `KnightsatError`); naming an
/// `encoding` (`"time-indexed"`, `"successor"`) or a `solver`
/// (`"varisat"`, `"cadical"`, or a solver program on the PATH such as
/// `"kissat"`) means SAT. `timeout` is in seconds (`KnightsatError` when
/// it runs out); `seed` is the tie-break of Warnsdorff's rule. Ctrl-C
/// stops the search and raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (problem, *, method=None, encoding=None, solver=None, timeout=None, seed=None))]
#[pyo3(
    text_signature = "(problem, *, method='auto', encoding=None, solver=None, timeout=None, seed=None)"
)]
fn solve(
    py: Python<'_>,
    problem: &Bound<'_, PyAny>,
    method: Option<&Bound<'_, PyAny>>,
    encoding: Option<&Bound<'_, PyAny>>,
    solver: Option<&Bound<'_, PyAny>>,
    timeout: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Vec<String>>> {
    let problem = problem_arg(problem)?;
    let seed = optional_whole_number(seed, "seed", 0, "a seed")?;
    let Asked {
        method,
        sat_named,
        request,
    } = asked(method, encoding, solver, timeout)?;
    let request = Request { seed, ..request };
    let problem = &problem.inner;
    let interrupt = request.interrupt.clone();
    let solved = interruptible(py, &interrupt, || {
        SolveJob {
            method,
            sat_named,
            request,
            ..SolveJob::new(problem)
        }
        .run()
    })?;
    Ok(match solved.outcome {
        Outcome::Tour(tour) => Some(tour.names()),
        Outcome::NoTour => None,
    })
}

/// Counts the tours of `problem` (sequences of squares: a closed tour
/// counts once per start and direction), or its orbits under the board's
/// symmetries with `up_to_symmetry`; at most `limit`. `method` is
/// `"auto"`, `"sat"`, `"backtrack"` or `"frontier"`; `encoding`, `solver`
/// and `timeout` as for `solve`; `jobs` threads (0 or None: one per core,
/// where the route splits its work; a count that lists the tours one by
/// one runs one search). Exact to `2**256 - 1` (the frontier counter's
/// counts of long boards pass `2**128`). Ctrl-C stops the count and
/// raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (problem, *, method=None, encoding=None, solver=None, limit=None, up_to_symmetry=None, jobs=None, timeout=None))]
#[pyo3(
    text_signature = "(problem, *, method='auto', encoding=None, solver=None, limit=None, up_to_symmetry=False, jobs=None, timeout=None)"
)]
#[allow(clippy::too_many_arguments)]
fn count(
    py: Python<'_>,
    problem: &Bound<'_, PyAny>,
    method: Option<&Bound<'_, PyAny>>,
    encoding: Option<&Bound<'_, PyAny>>,
    solver: Option<&Bound<'_, PyAny>>,
    limit: Option<&Bound<'_, PyAny>>,
    up_to_symmetry: Option<&Bound<'_, PyAny>>,
    jobs: Option<&Bound<'_, PyAny>>,
    timeout: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let problem = problem_arg(problem)?;
    let up_to_symmetry = flag_arg(up_to_symmetry, "up_to_symmetry")?;
    // 0 reaches the library, which says why it counts nothing.
    let limit = optional_whole_number(limit, "limit", 0, "a number of tours")?;
    let jobs = optional_whole_number(jobs, "jobs", 0, "a number of threads (0: one per core)")?
        .map(|jobs| usize::try_from(jobs).unwrap_or(usize::MAX));
    let Asked {
        method,
        sat_named,
        request,
    } = asked(method, encoding, solver, timeout)?;
    let problem = &problem.inner;
    let interrupt = request.interrupt.clone();
    let report = interruptible(py, &interrupt, || {
        CountJob {
            method,
            sat_named,
            request,
            jobs,
            limit,
            up_to_symmetry,
            ..CountJob::new(problem)
        }
        .run()
    })?;
    match report {
        CountReport::Tours(count) => python_int(py, count.tours),
        _ => Err(KnightsatError::new_err("the count gave no whole number")),
    }
}

/// The tours of `problem`, one at a time as the search finds them: a lazy
/// iterator of verified tours (lists of square names), in the order and
/// with the rules of `knightsat solve --all` (a closed tour with nothing
/// anchored in all its rotations; at most `limit`). `method` is `"auto"`,
/// `"sat"` or `"backtrack"`; `encoding`, `solver` and `timeout` as for
/// `solve` (a timeout that runs out raises `KnightsatError` after the
/// tours found by then). The search runs on a thread of its own, the GIL
/// released while it looks for the next tour; stopping the iteration (a
/// `break`, `close()`, or dropping the iterator) stops it and leaves
/// nothing running, and Ctrl-C raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (problem, *, method=None, encoding=None, solver=None, limit=None, timeout=None))]
#[pyo3(
    text_signature = "(problem, *, method='auto', encoding=None, solver=None, limit=None, timeout=None)"
)]
fn tours(
    problem: &Bound<'_, PyAny>,
    method: Option<&Bound<'_, PyAny>>,
    encoding: Option<&Bound<'_, PyAny>>,
    solver: Option<&Bound<'_, PyAny>>,
    limit: Option<&Bound<'_, PyAny>>,
    timeout: Option<&Bound<'_, PyAny>>,
) -> PyResult<Tours> {
    let problem = problem_arg(problem)?;
    let limit = optional_whole_number(limit, "limit", 0, "a number of tours")?;
    let Asked {
        method,
        sat_named,
        request,
    } = asked(method, encoding, solver, timeout)?;
    let problem = problem.inner.clone();
    // What the job can do is checked before any thread starts, as the
    // listing it is (the frontier counter lists no tour).
    let mut listing = |_: &Tour| Ok(());
    py_result(
        CountJob {
            method,
            sat_named,
            request: request.clone(),
            limit,
            on_tour: Some(&mut listing),
            ..CountJob::new(&problem)
        }
        .check(),
    )?;
    let interrupt = request.interrupt.clone();
    // One tour ahead of the caller at most: the search waits for the
    // caller to take it.
    let (sender, receiver) = mpsc::sync_channel::<Found>(1);
    let worker = std::thread::spawn(move || {
        let mut on_tour = |tour: &Tour| {
            sender
                .send(Ok(tour.names()))
                .map_err(|_| Error::Run(RunError::Interrupted))
        };
        let listed = CountJob {
            method,
            sat_named,
            request,
            limit,
            on_tour: Some(&mut on_tour),
            ..CountJob::new(&problem)
        }
        .run();
        match listed {
            // Stopped by the caller, or done: the channel's end says so.
            Ok(_) | Err(Error::Run(RunError::Interrupted)) => {}
            Err(error) => {
                let _ = sender.send(Err(error));
            }
        }
    });
    Ok(Tours {
        receiver: Mutex::new(Some(receiver)),
        worker: Mutex::new(Some(worker)),
        interrupt,
    })
}

/// What the search of `tours` hands over: a tour, or the error that ended it.
type Found = Result<Vec<String>, Error>;

/// The iterator `tours` returns: each tour as the search finds it.
#[pyclass(module = "knightsat")]
struct Tours {
    /// Where the search sends each tour (or the error that ended it);
    /// `None` once the iteration has ended.
    receiver: Mutex<Option<mpsc::Receiver<Found>>>,
    /// The thread searching, until it is joined.
    worker: Mutex<Option<std::thread::JoinHandle<()>>>,
    /// Stops the search.
    interrupt: Interrupt,
}

#[pymethods]
impl Tours {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Vec<String>>> {
        loop {
            let received = py.detach(|| {
                let receiver = lock(&self.receiver);
                match receiver.as_ref() {
                    Some(receiver) => receiver.recv_timeout(SIGNAL_POLL),
                    None => Err(mpsc::RecvTimeoutError::Disconnected),
                }
            });
            match received {
                Ok(Ok(tour)) => return Ok(Some(tour)),
                Ok(Err(error)) => {
                    self.stop(py);
                    return Err(py_error(&error));
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    self.stop(py);
                    return Ok(None);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(raised) = py.check_signals() {
                        self.stop(py);
                        return Err(raised);
                    }
                }
            }
        }
    }

    /// Stops the search now (as leaving a `for` loop does): no thread is
    /// left running.
    fn close(&self, py: Python<'_>) {
        self.stop(py);
    }
}

impl Tours {
    /// Stops the search and waits for its thread, the GIL released
    /// meanwhile.
    fn stop(&self, py: Python<'_>) {
        py.detach(|| self.end());
    }

    /// Stops the search and waits for its thread: the flag raised, and the
    /// channel closed so that a search waiting to hand over a tour gives up.
    fn end(&self) {
        self.interrupt.raise();
        drop(lock(&self.receiver).take());
        if let Some(worker) = lock(&self.worker).take() {
            let _ = worker.join();
        }
    }
}

impl Drop for Tours {
    fn drop(&mut self) {
        self.end();
    }
}

/// A mutex's value, even after a panic elsewhere.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A count as a Python `int`, exact past 128 bits (through its decimal
/// digits, which `int` reads).
fn python_int(py: Python<'_>, number: TourNumber) -> PyResult<Py<PyAny>> {
    match number.to_u128() {
        Some(small) => Ok(small.into_pyobject(py)?.into_any().unbind()),
        None => Ok(py
            .get_type::<pyo3::types::PyInt>()
            .call1((number.to_string(),))?
            .unbind()),
    }
}

/// Checks that `tour` (square names in visiting order, as a list or as
/// one string `"a1 c2 ..."`) is a tour of `problem`: every square once,
/// each move the piece's, closed if the problem is, its start, end and
/// clues kept. Returns `None`; an unknown square raises `ValueError`, a
/// tour that breaks a rule `KnightsatError` naming the first it breaks.
#[pyfunction]
fn verify(tour: &Bound<'_, PyAny>, problem: &Bound<'_, PyAny>) -> PyResult<()> {
    let problem = problem_arg(problem)?;
    let board = problem.inner.board();
    let names = square_names_of(tour, "tour")?;
    let squares = names
        .iter()
        .map(|name| board.parse_square(name).map_err(Error::from))
        .collect::<Result<Vec<_>, _>>();
    let squares = Python::attach(|py| for_parameter(py, "tour", py_result(squares)))?;
    py_result(verify_squares(&squares, &problem.inner).map_err(Error::from))
}

/// Square names given to the parameter `name`: a list (any iterable) of
/// names, or one string of names separated by spaces or commas; a
/// `ValueError` naming the parameter otherwise.
fn square_names_of(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<String>> {
    if let Ok(text) = value.extract::<String>() {
        return Ok(square_names_in(&text).map(str::to_string).collect());
    }
    let refuse = || {
        PyValueError::new_err(format!(
            "{name}: {} is not square names: give a list of names or one string \"a1 c2 …\"",
            shown_value(value)
        ))
    };
    let mut names = Vec::new();
    for item in value.try_iter().map_err(|_| refuse())? {
        let item = item?;
        names.push(item.extract::<String>().map_err(|_| {
            PyValueError::new_err(format!(
                "{name}: {} is not a square's name",
                shown_value(&item)
            ))
        })?);
    }
    Ok(names)
}

/// A puzzle made by `puzzle`: clues with exactly one tour through them.
#[pyclass(module = "knightsat", frozen)]
struct Puzzle {
    inner: LibProblem,
    solution: Tour,
    /// Clues that the time limit left untried (0: no clue can go).
    #[pyo3(get)]
    untried: usize,
}

#[pymethods]
impl Puzzle {
    /// The puzzle as a problem (its board and clues, closed if the puzzle
    /// is), to solve or count.
    #[getter]
    fn problem(&self) -> Problem {
        Problem {
            inner: self.inner.clone(),
        }
    }

    /// The clues: move number (from 1) to square name.
    #[getter]
    fn clues(&self) -> HashMap<usize, String> {
        self.problem().clues()
    }

    /// The one solution, as square names in visiting order.
    #[getter]
    fn solution(&self) -> Vec<String> {
        self.solution.names()
    }

    /// The puzzle as a grid of clue numbers, as `knightsat puzzle` prints it.
    fn grid(&self) -> String {
        puzzle_grid(&self.inner)
    }

    /// The solution as a numbered grid.
    fn solution_grid(&self) -> String {
        board_grid(&self.solution)
    }

    fn __repr__(&self) -> String {
        format!(
            "<knightsat.Puzzle on the {}, {} clues>",
            self.inner.board(),
            self.inner.clues().len()
        )
    }
}

/// Makes a puzzle on the board of `problem` (its holes and leaper; closed
/// if the problem or `closed` says so; a start, an end or clues raise
/// `ValueError`, as the command takes none): clues with exactly one tour
/// and no clue that can go. The same `seed` makes the same puzzle. `None`
/// when the board has no tour. `timeout` in seconds bounds the whole
/// making: when it runs out, the puzzle so far (still with one tour;
/// `untried` counts the clues not tried), or `KnightsatError` if no tour
/// was found yet. Ctrl-C stops it and raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (problem, *, closed=None, seed=None, timeout=None))]
#[pyo3(text_signature = "(problem, *, closed=False, seed=None, timeout=None)")]
fn puzzle(
    py: Python<'_>,
    problem: &Bound<'_, PyAny>,
    closed: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    timeout: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Puzzle>> {
    let problem = problem_arg(problem)?;
    let closed = flag_arg(closed, "closed")?;
    let seed = optional_whole_number(seed, "seed", 0, "a seed")?;
    let sat = pyo3::types::PyString::new(py, "sat");
    let Asked { request, .. } = asked(Some(sat.as_any()), None, None, timeout)?;
    let seed = seed_or_random(seed);
    let (board, closed_problem) = py_result(puzzle_rules(&problem.inner))?;
    let closed = closed || closed_problem;
    let generated = interruptible(py, &request.interrupt, || {
        generate(board, closed, seed, &request, |_, _| {})
    })?;
    Ok(generated.map(|generated| Puzzle {
        inner: generated.puzzle,
        solution: generated.solution,
        untried: generated.untried,
    }))
}

/// knightsat: the knight's tour as SAT.
///
/// Encode a problem into clauses that `PySAT` takes, decode a model into a
/// verified tour, or solve, count, list, verify and make puzzles with the
/// library's own solvers (the Rust library the `knightsat` command runs).
///
/// Bad input raises `ValueError` (a value of the wrong type `TypeError`,
/// naming its parameter); other failures raise `KnightsatError`; Ctrl-C
/// during `solve`, `count`, `tours` or `puzzle` stops the work and
/// raises `KeyboardInterrupt`.
#[pymodule]
#[pyo3(name = "knightsat")]
fn knightsat_python(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("KnightsatError", py.get_type::<KnightsatError>())?;
    module.add_class::<Problem>()?;
    module.add_class::<Formula>()?;
    module.add_class::<FormulaClauses>()?;
    module.add_class::<Puzzle>()?;
    module.add_function(wrap_pyfunction!(encode, module)?)?;
    module.add_function(wrap_pyfunction!(dimacs, module)?)?;
    module.add_function(wrap_pyfunction!(decode, module)?)?;
    module.add_function(wrap_pyfunction!(solve, module)?)?;
    module.add_function(wrap_pyfunction!(count, module)?)?;
    module.add_function(wrap_pyfunction!(tours, module)?)?;
    module.add_class::<Tours>()?;
    module.add_function(wrap_pyfunction!(verify, module)?)?;
    module.add_function(wrap_pyfunction!(puzzle, module)?)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
