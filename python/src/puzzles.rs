//! `Puzzle` and `puzzle`: clues with exactly one tour.

use std::collections::HashMap;

use pyo3::prelude::*;

use knightsat::board_grid;
use knightsat::model::problem::Problem as LibProblem;
use knightsat::puzzle::{generate, puzzle_grid, puzzle_rules, seed_or_random};
use knightsat::Tour;

use crate::args::{asked, flag_arg, optional_whole_number, Asked};
use crate::errors::{interruptible, py_result};
use crate::problem::{problem_arg, Problem};

/// A puzzle made by `puzzle`: clues with exactly one tour through them.
#[pyclass(module = "knightsat", frozen)]
pub(crate) struct Puzzle {
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
pub(crate) fn puzzle(
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
