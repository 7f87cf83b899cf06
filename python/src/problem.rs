//! `Problem`, the board and its rules as a Python value, and `verify`.

use std::collections::HashMap;
use std::fmt::Write as _;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use knightsat::error::Error;
use knightsat::model::board::{Board, Leaper};
use knightsat::model::graph::Graph;
use knightsat::model::problem::{parse_clue, Problem as LibProblem};
use knightsat::model::verify::verify as verify_squares;

use crate::args::{
    clue_texts, flag_arg, leaper_of, shown_value, square_names_of, text_arg, whole_number, A_SQUARE,
};
use crate::errors::{for_parameter, py_result};

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
pub(crate) struct Problem {
    pub(crate) inner: LibProblem,
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

    /// A graph instead of a board: a Hamiltonian path of it, or with
    /// `closed` a cycle. `graph` is an iterable of edges `(u, v)` or any
    /// object with an `edges()` method, such as a networkx graph (with a
    /// `nodes()` method too, isolated vertices count); its vertices are
    /// whole numbers from 1, as in a graph file
    /// (`networkx.convert_node_labels_to_integers(g, first_label=1)`
    /// numbers a networkx graph so). Self-loops and repeated edges are read
    /// as the simple graph they mean. Tours name the vertices by number, as
    /// strings (`"1"`, `"2"`, ...); `start`, `end` and `clues` name them
    /// by number too. It is solved and counted by SAT with the successor
    /// encoding. Bad input raises `ValueError`.
    #[staticmethod]
    #[pyo3(signature = (graph, *, closed=None, start=None, end=None, clues=None))]
    #[pyo3(text_signature = "(graph, *, closed=False, start=None, end=None, clues=None)")]
    fn from_graph(
        graph: &Bound<'_, PyAny>,
        closed: Option<&Bound<'_, PyAny>>,
        start: Option<&Bound<'_, PyAny>>,
        end: Option<&Bound<'_, PyAny>>,
        clues: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Problem> {
        let board = Board::from_graph(graph_of(graph)?);
        let start = vertex_text(start, "start")?;
        let end = vertex_text(end, "end")?;
        Problem::with_rules(&board, closed, start, end, clues)
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
    pub(crate) fn clues(&self) -> HashMap<usize, String> {
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
        let mut text = match board.graph() {
            Some(graph) => format!("knightsat.Problem.from_graph({}", edges_in_python(graph)),
            None => format!("knightsat.Problem({}, {}", board.rows(), board.cols()),
        };
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

    /// What `pickle` and `copy` make it again from: for a board what
    /// [`__getnewargs_ex__`](Self::__getnewargs_ex__) gives; for a graph
    /// `from_graph` with its edges and the rules by keyword.
    fn __reduce_ex__<'py>(
        slf: &Bound<'py, Self>,
        protocol: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let this = slf.get();
        let Some(graph) = this.inner.board().graph() else {
            let object = py.import("builtins")?.getattr("object")?;
            return object.getattr("__reduce_ex__")?.call1((slf, protocol));
        };
        let edges: Vec<(usize, usize)> = graph.edge_list();
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("closed", this.inner.is_closed())?;
        kwargs.set_item("start", this.start())?;
        kwargs.set_item("end", this.end())?;
        kwargs.set_item("clues", this.clues())?;
        let from_graph = slf.get_type().getattr("from_graph")?;
        let partial = py
            .import("functools")?
            .getattr("partial")?
            .call((from_graph,), Some(&kwargs))?;
        (partial, (edges,)).into_pyobject(py).map(Bound::into_any)
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

/// The edges of `graph` as a Python list's repr: `[(1, 2), (2, 3)]`.
fn edges_in_python(graph: &Graph) -> String {
    let pairs: Vec<String> = graph
        .edge_list()
        .iter()
        .map(|(u, v)| format!("({u}, {v})"))
        .collect();
    format!("[{}]", pairs.join(", "))
}

/// The graph `from_graph` is given: edges from an `edges()` method or
/// from iterating it, vertices from 1 to the largest named (by a
/// `nodes()` method too).
fn graph_of(value: &Bound<'_, PyAny>) -> PyResult<Graph> {
    let has = |method: &str| {
        value
            .getattr(method)
            .is_ok_and(|attribute| attribute.is_callable())
    };
    let edges_object = if has("edges") {
        value.call_method0("edges")?
    } else {
        value.clone()
    };
    let vertex = |value: &Bound<'_, PyAny>| -> PyResult<usize> {
        let number = whole_number(value, "graph", 1, "a vertex number")?;
        Ok(usize::try_from(number).unwrap_or(usize::MAX))
    };
    let not_edges = || {
        PyTypeError::new_err(format!(
            "graph: {} is not a graph: give edges (u, v) of vertex numbers from 1, or an object with an edges() method",
            shown_value(value)
        ))
    };
    let mut edges = Vec::new();
    let mut vertices = 0;
    for item in edges_object.try_iter().map_err(|_| not_edges())? {
        let item = item?;
        let (u, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract().map_err(|_| {
            PyValueError::new_err(format!(
                "graph: {} is not an edge (u, v)",
                shown_value(&item)
            ))
        })?;
        let (u, v) = (vertex(&u)?, vertex(&v)?);
        vertices = vertices.max(u).max(v);
        edges.push((u, v));
    }
    if has("nodes") {
        for node in value.call_method0("nodes")?.try_iter()? {
            vertices = vertices.max(vertex(&node?)?);
        }
    }
    Python::attach(|py| {
        for_parameter(
            py,
            "graph",
            py_result(Graph::new(vertices, &edges).map_err(Error::from)),
        )
    })
}

/// A vertex named for `start` or `end`: a whole number or its text.
fn vertex_text(value: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<String>> {
    match value.filter(|value| !value.is_none()) {
        Some(value) if value.is_instance_of::<pyo3::types::PyInt>() => Ok(Some(
            whole_number(value, name, 1, "a vertex number")?.to_string(),
        )),
        value => text_arg(value, name, "a vertex number"),
    }
}

/// Names as a Python list's repr: `['c3', 'd4']`.
pub(crate) fn python_list(names: &[String]) -> String {
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
        flag_arg(closed, "closed")?;
        let start = text_arg(start, "start", A_SQUARE)?;
        let end = text_arg(end, "end", A_SQUARE)?;
        // Each parameter's errors are worded as that parameter's.
        let board = Python::attach(|py| -> PyResult<Board> {
            let leaper = for_parameter(
                py,
                "leaper",
                leaper.map_or(Ok(Leaper::default()), leaper_of),
            )?;
            Ok(for_parameter(
                py,
                "holes",
                py_result(board.with_holes(holes).map_err(Error::from)),
            )?
            .with_leaper(leaper))
        })?;
        Problem::with_rules(&board, closed, start, end, clues)
    }

    /// The problem on `board` (its holes and leaper in place) with the
    /// given rules.
    fn with_rules(
        board: &Board,
        closed: Option<&Bound<'_, PyAny>>,
        start: Option<String>,
        end: Option<String>,
        clues: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Problem> {
        let closed = flag_arg(closed, "closed")?;
        Python::attach(|py| {
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
                .map(|text| parse_clue(board, text).map_err(Error::from))
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

/// Checks that `tour` (square names in visiting order, as a list or as
/// one string `"a1 c2 ..."`) is a tour of `problem`: every square once,
/// each move the piece's, closed if the problem is, its start, end and
/// clues kept. Returns `None`; an unknown square raises `ValueError`, a
/// tour that breaks a rule `KnightsatError` naming the first it breaks.
#[pyfunction]
pub(crate) fn verify(tour: &Bound<'_, PyAny>, problem: &Bound<'_, PyAny>) -> PyResult<()> {
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

/// The `Problem` given to the parameter `problem`, or a `TypeError` saying
/// how to make one.
pub(crate) fn problem_arg<'py>(value: &Bound<'py, PyAny>) -> PyResult<PyRef<'py, Problem>> {
    value.extract::<PyRef<'py, Problem>>().map_err(|_| {
        PyTypeError::new_err(format!(
            "problem: {} is not a knightsat.Problem (make one with Problem(8) or Problem.from_ascii(...))",
            shown_value(value)
        ))
    })
}
