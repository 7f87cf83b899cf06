//! `Formula` and its variables: `encode`, `dimacs` and `decode`.

use std::collections::HashMap;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use knightsat::cnf::Formula as Clauses;
use knightsat::cnf_file::write_cnf;
use knightsat::encoding::decode::tour_from_model;
use knightsat::encoding::{
    block_tour, Encoding, EncodingConfig, Model, Subtours, Successor, TimeIndexed,
};
use knightsat::error::Error;
use knightsat::model::board::Board;
use knightsat::model::problem::Problem as LibProblem;
use knightsat::solve::auto::{formula_config, written_config};

use crate::args::{
    config, flag_arg, literals_of, model_of, optional_whole_number, shown_value, square_names_of,
    text_arg, whole_number, A_SQUARE,
};
use crate::errors::{for_parameter, py_result};
use crate::problem::{problem_arg, Problem};

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
pub(crate) struct Formula {
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
pub(crate) enum VarName {
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
pub(crate) enum Numbering {
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
pub(crate) struct FormulaClauses {
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
pub(crate) fn var_names(
    problem: &LibProblem,
    config: &EncodingConfig,
) -> PyResult<HashMap<VarName, usize>> {
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
pub(crate) fn var_map_dict<'py>(
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
pub(crate) fn numbering(
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

/// Encodes `problem` as CNF. `encoding` is `"time-indexed"` (the
/// default, as for the command's `encode`), `"successor"` or `"auto"`.
/// The time-indexed encoding has one variable per move number and square
/// (`Formula.lit`), which clues pin; the successor encoding has one per
/// move (`Formula.move_lit`), its subtours excluded by the formula itself,
/// so that every model is a tour. `"auto"` gives the formula the default
/// route solves: the successor encoding for a problem without clues (about
/// a tenth of the time-indexed formula's size on 20x20), the time-indexed
/// one for a problem with clues.
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
    text_signature = "(problem, *, encoding='time-indexed', every_tour=False, start_from=None, vpool=None)"
)]
pub(crate) fn encode(
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
    // The command's `encode` writes the same formula when no encoding is
    // named.
    let mut config = match encoding.as_deref() {
        None => written_config(&problem.inner),
        Some("auto") => formula_config(&problem.inner),
        Some(name) => config(name, Subtours::FOR_WRITING)?,
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
/// solver's answer to it. `encoding` (`"time-indexed"` by default) and
/// `every_tour` as for `encode`.
#[pyfunction]
#[pyo3(signature = (problem, *, encoding=None, every_tour=None))]
#[pyo3(text_signature = "(problem, *, encoding='time-indexed', every_tour=False)")]
pub(crate) fn dimacs(
    py: Python<'_>,
    problem: &Bound<'_, PyAny>,
    encoding: Option<&Bound<'_, PyAny>>,
    every_tour: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    encode(py, problem, encoding, every_tour, None, None)?.dimacs()
}

/// The tour `model` of `formula` describes, verified (see `Formula.decode`).
#[pyfunction]
pub(crate) fn decode(
    formula: &Bound<'_, PyAny>,
    model: &Bound<'_, PyAny>,
) -> PyResult<Vec<String>> {
    let formula = formula.extract::<PyRef<'_, Formula>>().map_err(|_| {
        PyTypeError::new_err(format!(
            "formula: {} is not a knightsat.Formula (encode(problem) makes one)",
            shown_value(formula)
        ))
    })?;
    formula.decode(model)
}
