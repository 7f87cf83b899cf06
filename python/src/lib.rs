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
//! [`SIGNAL_POLL`]; on Ctrl-C it raises the request's
//! [`Interrupt`], waits for the work to end, and raises `KeyboardInterrupt`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::mpsc;
use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

use knightsat::cnf::Formula as Clauses;
use knightsat::cnf_file::write_cnf;
use knightsat::count::{CountJob, CountReport, TourNumber};
use knightsat::encoding::decode::tour_from_model;
use knightsat::encoding::{
    block_tour, Encoding, EncodingConfig, Model, Subtours, Successor, SuccessorConfig, TimeIndexed,
    TimeIndexedConfig,
};
use knightsat::error::{Error, ErrorClass};
use knightsat::model::board::{Board, Leaper};
use knightsat::model::problem::{parse_clue, Problem as LibProblem};
use knightsat::model::verify::verify as verify_squares;
use knightsat::puzzle::{generate, puzzle_grid};
use knightsat::render::board_grid;
use knightsat::runtime::interrupt::Interrupt;
use knightsat::sat::Backend;
use knightsat::solve::{find_tour, Method, Outcome, Request};
use knightsat::tour::Tour;

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
    if matches!(error, Error::Interrupted) {
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
fn py_result<T>(result: Result<T, Error>) -> PyResult<T> {
    result.map_err(|error| py_error(&error))
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
/// `holes` names squares that are not there (`["d4", "e5"]`), `leaper` is
/// the piece's jump as `(1, 2)` (the knight, the default) or `"1,3"`,
/// `start` and `end` are square names, and `clues` maps move numbers
/// (the start is move 1) to square names, `{1: "a1", 10: "c3"}`, or is a
/// list of `"N=SQUARE"` strings. Bad input raises `ValueError`.
#[pyclass(module = "knightsat", frozen)]
#[derive(Clone)]
struct Problem {
    inner: LibProblem,
}

/// A leaper given as `(a, b)` or as the text `"a,b"`.
#[derive(FromPyObject)]
enum LeaperArg {
    Pair(usize, usize),
    Text(String),
}

/// Clues given as a mapping of move numbers to squares or as `N=SQUARE` texts.
#[derive(FromPyObject)]
enum CluesArg {
    Map(HashMap<usize, String>),
    Texts(Vec<String>),
}

#[pymethods]
impl Problem {
    // PyO3 hands over owned values; the lists are read, not kept.
    #[new]
    #[allow(clippy::needless_pass_by_value)]
    #[pyo3(signature = (rows, cols=None, *, holes=Vec::new(), leaper=None, closed=false, start=None, end=None, clues=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        rows: i64,
        cols: Option<i64>,
        holes: Vec<String>,
        leaper: Option<LeaperArg>,
        closed: bool,
        start: Option<String>,
        end: Option<String>,
        clues: Option<CluesArg>,
    ) -> PyResult<Problem> {
        // Signed, so that a negative size is a ValueError like a zero one.
        let size = |n: i64| {
            usize::try_from(n)
                .map_err(|_| PyValueError::new_err(format!("bad board: {n} is not a size")))
        };
        let (rows, cols) = (size(rows)?, size(cols.unwrap_or(rows))?);
        let board = py_result(Board::new(rows, cols).map_err(Error::from))?;
        Problem::on(&board, &holes, leaper, closed, start, end, clues)
    }

    /// A problem on a board drawn in text: one line per rank, the highest
    /// first, `.` for a square and `#` for a hole; the other rules as for
    /// `Problem(...)`.
    #[staticmethod]
    #[pyo3(signature = (text, *, leaper=None, closed=false, start=None, end=None, clues=None))]
    fn from_ascii(
        text: &str,
        leaper: Option<LeaperArg>,
        closed: bool,
        start: Option<String>,
        end: Option<String>,
        clues: Option<CluesArg>,
    ) -> PyResult<Problem> {
        let board = py_result(Board::from_ascii(text).map_err(Error::from))?;
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

    fn __repr__(&self) -> String {
        let mut ends = String::new();
        for (end, square) in [("start", self.start()), ("end", self.end())] {
            if let Some(square) = square {
                let _ = write!(ends, ", {end} {square}");
            }
        }
        format!(
            "<knightsat.Problem {} {} of the {}{ends}, {} clues>",
            self.inner.board(),
            self.inner.kind(),
            self.inner.board().leaper().name(),
            self.inner.clues().len()
        )
    }
}

impl Problem {
    /// The problem on `board` with the given holes, leaper and rules.
    fn on(
        board: &Board,
        holes: &[String],
        leaper: Option<LeaperArg>,
        closed: bool,
        start: Option<String>,
        end: Option<String>,
        clues: Option<CluesArg>,
    ) -> PyResult<Problem> {
        let leaper = match leaper {
            None => Leaper::default(),
            Some(LeaperArg::Pair(a, b)) => py_result(Leaper::new(a, b).map_err(Error::from))?,
            Some(LeaperArg::Text(text)) => py_result(text.parse().map_err(Error::from))?,
        };
        let board = py_result(board.with_holes(holes).map_err(Error::from))?.with_leaper(leaper);
        let square = |name: Option<String>| -> PyResult<Option<usize>> {
            name.map(|name| py_result(board.parse_square(&name).map_err(Error::from)))
                .transpose()
        };
        let (start, end) = (square(start)?, square(end)?);
        let texts = match clues {
            None => Vec::new(),
            Some(CluesArg::Texts(texts)) => texts,
            Some(CluesArg::Map(map)) => {
                let mut map: Vec<_> = map.into_iter().collect();
                map.sort();
                map.into_iter()
                    .map(|(number, square)| format!("{number}={square}"))
                    .collect()
            }
        };
        let clues = texts
            .iter()
            .map(|text| parse_clue(&board, text).map_err(Error::from))
            .collect::<Result<Vec<_>, _>>();
        let clues = py_result(clues)?;
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
    }
}

/// The encoding configuration named, the formula complete or its
/// subtours left to a loop (`subtours`), as the command's options give it.
fn config(encoding: &str, subtours: Subtours) -> PyResult<EncodingConfig> {
    match encoding {
        "time-indexed" => Ok(EncodingConfig::from(TimeIndexedConfig::default())),
        "successor" => Ok(EncodingConfig::from(SuccessorConfig {
            subtours,
            ..SuccessorConfig::default()
        })),
        other => Err(PyValueError::new_err(format!(
            "unknown encoding '{other}' (expected 'time-indexed' or 'successor')"
        ))),
    }
}

/// The method named.
fn method(name: &str) -> PyResult<Method> {
    Method::ALL
        .into_iter()
        .find(|method| method.name() == name)
        .ok_or_else(|| {
            let names: Vec<_> = Method::ALL.iter().map(|method| method.name()).collect();
            PyValueError::new_err(format!(
                "unknown method '{name}' (expected one of: {})",
                names.join(", ")
            ))
        })
}

/// The request the command would make: the method named (`auto` becomes
/// `sat` where an encoding or solver is named, as the command does), the
/// encoding's subtours lazy, the solver by name (varisat unless named),
/// the time limit in seconds, armed to be interrupted.
fn request(
    method_name: &str,
    encoding: Option<&str>,
    solver: Option<&str>,
    timeout: Option<f64>,
) -> PyResult<(Method, Request)> {
    let names_sat = encoding.is_some() || solver.is_some();
    let method = match method(method_name)? {
        Method::Auto if names_sat => Method::Sat,
        other => other,
    };
    let timeout = timeout
        .map(|seconds| {
            Duration::try_from_secs_f64(seconds)
                .map_err(|_| PyValueError::new_err(format!("bad timeout: {seconds} seconds")))
        })
        .transpose()?;
    let request = Request {
        config: config(encoding.unwrap_or("time-indexed"), Subtours::Lazy)?,
        backend: py_result(Backend::from_name(solver.unwrap_or("varisat"), Vec::new()))?,
        timeout,
        interrupt: Interrupt::new(),
        ..Request::default()
    };
    Ok((method, request))
}

/// A formula for a problem, with what it takes to read a model back.
///
/// `clauses` is a list of lists of DIMACS literals and `nvars` the number
/// of variables, which `PySAT` takes as they are:
/// `pysat.formula.CNF(from_clauses=f.clauses)` or
/// `pysat.solvers.Solver(bootstrap_with=f.clauses)`. `var_map` names the
/// encoding's own variables: for the time-indexed encoding
/// `(move, square) -> var` ("move number `move`, from 1, is on `square`"),
/// for the successor encoding `(square, next) -> var` ("the move from
/// `square` goes to `next`"), and for its open tours also
/// `("first", square)` and `("last", square)`. Auxiliary variables (above
/// `primary_vars`) have no names.
#[pyclass(module = "knightsat", frozen)]
struct Formula {
    encoding: Box<dyn Encoding>,
    /// The clauses, as lists of DIMACS literals.
    #[pyo3(get)]
    clauses: Py<PyAny>,
    /// The number of variables.
    #[pyo3(get)]
    nvars: usize,
    /// The encoding's own variables (the rest are auxiliary).
    #[pyo3(get)]
    primary_vars: usize,
    /// The encoding's own variables by name.
    #[pyo3(get)]
    var_map: Py<PyAny>,
}

#[pymethods]
impl Formula {
    /// The encoding's name: `time-indexed` or `successor`.
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
    /// comments say it.
    fn describe_vars(&self) -> Vec<String> {
        self.encoding.describe_vars()
    }

    /// The tour a model of this formula describes, as square names in
    /// visiting order, verified against the problem. `model` is a list of
    /// DIMACS literals (what `PySAT`'s `get_model()` returns) or a dict of
    /// variable to bool. A model that is no tour raises `ValueError`.
    fn decode(&self, model: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let model = model_of(model, self.nvars)?;
        let tour = py_result(tour_from_model(&*self.encoding, &model, Some(self.nvars)))?;
        Ok(tour.names())
    }

    /// A clause that every model satisfies except those of `tour` (square
    /// names in visiting order), over the encoding's own variables: add
    /// it to the solver to look for another tour, as the library's own
    /// enumeration does. Anything but a tour of the problem raises
    /// `ValueError` (a clause for a non-tour could remove real tours).
    fn block(&self, tour: Vec<String>) -> PyResult<Vec<isize>> {
        let board = self.encoding.problem().board();
        let squares = tour
            .into_iter()
            .map(|name| board.parse_square(&name).map_err(Error::from))
            .collect::<Result<Vec<_>, _>>();
        let squares = py_result(squares)?;
        let clause = py_result(block_tour(&*self.encoding, &squares))?;
        Ok(clause.iter().map(|lit| lit.to_dimacs()).collect())
    }

    /// The formula as a DIMACS CNF file's text, with the comments that let
    /// `knightsat decode` read a solver's answer to it.
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

/// The model `model` gives for a formula of `vars` variables: a list of
/// DIMACS literals (`PySAT`'s `get_model()`) or a dict from variable numbers
/// to `bool`s. Anything else, a variable given both values, or a number
/// that names no variable, is a `ValueError` saying so.
fn model_of(model: &Bound<'_, PyAny>, vars: usize) -> PyResult<Model> {
    let number = |item: &Bound<'_, PyAny>, what: &str| -> PyResult<i64> {
        if item.is_instance_of::<pyo3::types::PyBool>() {
            return Err(PyValueError::new_err(format!(
                "model: {what} {item} is a bool, not a literal"
            )));
        }
        item.extract::<i64>().map_err(|_| {
            PyValueError::new_err(format!(
                "model: {what} {} is not a variable's number: the formula has variables 1 to {vars}",
                shown_value(item)
            ))
        })
    };
    if let Ok(dict) = model.cast::<pyo3::types::PyDict>() {
        let mut assigned = Vec::with_capacity(dict.len());
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
                    "model: {var} names no variable: the formula has variables 1 to {vars}"
                )));
            }
            assigned.push((var.unsigned_abs(), value));
        }
        return py_result(Model::from_values(assigned, vars));
    }
    let items = model.try_iter().map_err(|_| {
        PyValueError::new_err(
            "model: a list of DIMACS literals (as PySAT's get_model() gives) or a dict {variable: bool}",
        )
    })?;
    let mut literals = Vec::new();
    for item in items {
        literals.push(number(&item?, "the literal")?);
    }
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

/// The encoding's own variables by name (see [`Formula`]).
fn var_map<'py>(
    py: Python<'py>,
    problem: &LibProblem,
    config: &EncodingConfig,
) -> PyResult<Bound<'py, PyAny>> {
    let board = problem.board();
    let name = |square| board.name(square);
    let map = pyo3::types::PyDict::new(py);
    match config {
        EncodingConfig::TimeIndexed(config) => {
            let encoding = py_result(TimeIndexed::new(problem, *config))?;
            let vars = encoding.vars();
            for step in 0..board.squares() {
                for square in 0..board.squares() {
                    map.set_item((step + 1, name(square)), vars.x(step, square).to_dimacs())?;
                }
            }
        }
        EncodingConfig::Successor(config) => {
            let encoding = py_result(Successor::new(problem, *config))?;
            let moves = encoding.moves();
            for square in 0..board.squares() {
                for next in moves.neighbours(square) {
                    if let Some(var) = moves.step(square, next) {
                        map.set_item((name(square), name(next)), var.to_dimacs())?;
                    }
                }
                if !problem.is_closed() {
                    map.set_item(("first", name(square)), moves.first(square).to_dimacs())?;
                    map.set_item(("last", name(square)), moves.last(square).to_dimacs())?;
                }
            }
        }
    }
    Ok(map.into_any())
}

/// Encodes `problem` as CNF: `encoding` is `"time-indexed"` (the default)
/// or `"successor"` (its subtours excluded by the formula itself, so that
/// every model is a tour). With `every_tour`, no symmetry breaking: every
/// tour of the problem is a model (for counting); without it some tours
/// that are images of others are left out. A closed tour with no start,
/// end or clue starts on the first square, which loses no tour.
#[pyfunction]
#[pyo3(signature = (problem, *, encoding="time-indexed", every_tour=false))]
fn encode(
    py: Python<'_>,
    problem: &Problem,
    encoding: &str,
    every_tour: bool,
) -> PyResult<Formula> {
    let mut config = config(encoding, Subtours::Complete)?;
    if every_tour {
        config = config.keeping_every_tour();
    }
    let problem = &problem.inner;
    let prepared = py_result(config.prepare(problem))?;
    let mut clauses = Clauses::default();
    prepared.encode(&mut clauses);
    let nvars = clauses.vars.max(prepared.primary_vars());
    let lists: Vec<Vec<isize>> = clauses
        .clauses
        .iter()
        .map(|clause| clause.iter().map(|lit| lit.to_dimacs()).collect())
        .collect();
    Ok(Formula {
        clauses: lists.into_pyobject(py)?.into_any().unbind(),
        nvars,
        primary_vars: prepared.primary_vars(),
        var_map: var_map(py, problem, &config)?.unbind(),
        encoding: prepared,
    })
}

/// The DIMACS CNF text of `problem` (see `encode`): what
/// `knightsat encode` writes.
#[pyfunction]
#[pyo3(signature = (problem, *, encoding="time-indexed", every_tour=false))]
fn dimacs(py: Python<'_>, problem: &Problem, encoding: &str, every_tour: bool) -> PyResult<String> {
    encode(py, problem, encoding, every_tour)?.dimacs()
}

/// The tour `model` of `formula` describes, verified (see `Formula.decode`).
#[pyfunction]
fn decode(formula: &Formula, model: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    formula.decode(model)
}

/// Finds a tour: a list of square names in visiting order, or `None` when
/// there is none (proved). `method` is `"auto"` (the fastest route),
/// `"sat"`, `"backtrack"` or `"warnsdorff"` (which may give up:
/// `KnightsatError`); naming an `encoding` (`"time-indexed"`,
/// `"successor"`) or a `solver` (`"varisat"`, `"cadical"`, or a solver
/// program on the PATH) means SAT. `timeout` is in seconds
/// (`KnightsatError` when it runs out). Ctrl-C stops the search and raises
/// `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (problem, *, method="auto", encoding=None, solver=None, timeout=None, seed=None))]
fn solve(
    py: Python<'_>,
    problem: &Problem,
    method: &str,
    encoding: Option<&str>,
    solver: Option<&str>,
    timeout: Option<f64>,
    seed: Option<u64>,
) -> PyResult<Option<Vec<String>>> {
    let (method, request) = request(method, encoding, solver, timeout)?;
    let request = Request { seed, ..request };
    let problem = &problem.inner;
    let solved = interruptible(py, &request.interrupt, || {
        if method == Method::Sat {
            request.config.check(problem)?;
        }
        method.check_supports(problem, &request)?;
        find_tour(problem, method, &request)
    })?;
    Ok(match solved.outcome {
        Outcome::Tour(tour) => Some(tour.names()),
        Outcome::NoTour => None,
    })
}

/// Counts the tours of `problem` (sequences of squares: a closed tour
/// counts once per start and direction), or its orbits under the board's
/// symmetries with `up_to_symmetry`; at most `limit`. `method` is
/// `"auto"`, `"sat"`, `"backtrack"` or `"frontier"`; `encoding` and
/// `solver` as for `solve`; `jobs` threads (0 or None: one per core,
/// where the route splits its work). Ctrl-C
/// stops the count and raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (problem, *, method="auto", encoding=None, solver=None, limit=None, up_to_symmetry=false, jobs=None, timeout=None))]
#[allow(clippy::too_many_arguments)]
fn count(
    py: Python<'_>,
    problem: &Problem,
    method: &str,
    encoding: Option<&str>,
    solver: Option<&str>,
    limit: Option<u64>,
    up_to_symmetry: bool,
    jobs: Option<usize>,
    timeout: Option<f64>,
) -> PyResult<Py<PyAny>> {
    let (method, request) = request(method, encoding, solver, timeout)?;
    let request = Request {
        every_tour: true,
        ..request
    };
    let problem = &problem.inner;
    let interrupt = request.interrupt.clone();
    let report = interruptible(py, &interrupt, || {
        method.check_supports(problem, &request)?;
        CountJob {
            method,
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
fn verify(tour: TourArg, problem: &Problem) -> PyResult<()> {
    let board = problem.inner.board();
    let names = match tour {
        TourArg::Text(text) => text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|name| !name.is_empty())
            .map(str::to_string)
            .collect(),
        TourArg::Names(names) => names,
    };
    let squares = names
        .iter()
        .map(|name| board.parse_square(name).map_err(Error::from))
        .collect::<Result<Vec<_>, _>>();
    let squares = py_result(squares)?;
    py_result(verify_squares(&squares, &problem.inner).map_err(Error::from))
}

/// A tour handed to `verify`.
#[derive(FromPyObject)]
enum TourArg {
    Text(String),
    Names(Vec<String>),
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
    /// The puzzle as a problem (its clues and nothing else), to solve.
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

/// Makes a puzzle on the board of `problem` (its holes and leaper; its
/// start, end and clues are not used): clues with exactly one tour,
/// closed if `closed`, and no clue that can go. The same `seed` makes the
/// same puzzle. `None` when the board has no tour. `timeout` in seconds
/// bounds the whole making; Ctrl-C stops it and raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (problem, *, closed=false, seed=None, timeout=None))]
fn puzzle(
    py: Python<'_>,
    problem: &Problem,
    closed: bool,
    seed: Option<u64>,
    timeout: Option<f64>,
) -> PyResult<Option<Puzzle>> {
    let (_, request) = request("sat", None, None, timeout)?;
    let seed = seed.unwrap_or_else(|| fastrand::u64(..));
    let board = problem.inner.board();
    let generated = interruptible(py, &request.interrupt, || {
        generate(board, closed, seed, &request, |_, _| {})
    })?;
    Ok(generated.map(|generated| Puzzle {
        inner: generated.puzzle,
        solution: generated.solution,
        untried: generated.untried,
    }))
}

/// knightsat: the knight's tour as SAT. Encode a problem into clauses that
/// `PySAT` takes, decode a model into a verified tour, or solve, count,
/// verify and make puzzles with the library's own solvers.
#[pymodule]
#[pyo3(name = "knightsat")]
fn knightsat_python(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("KnightsatError", py.get_type::<KnightsatError>())?;
    module.add_class::<Problem>()?;
    module.add_class::<Formula>()?;
    module.add_class::<Puzzle>()?;
    module.add_function(wrap_pyfunction!(encode, module)?)?;
    module.add_function(wrap_pyfunction!(dimacs, module)?)?;
    module.add_function(wrap_pyfunction!(decode, module)?)?;
    module.add_function(wrap_pyfunction!(solve, module)?)?;
    module.add_function(wrap_pyfunction!(count, module)?)?;
    module.add_function(wrap_pyfunction!(verify, module)?)?;
    module.add_function(wrap_pyfunction!(puzzle, module)?)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
