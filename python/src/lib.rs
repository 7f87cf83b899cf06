//! The Python module `knightsat`: a thin layer over the library crate
//! `knightsat`, the same code the command runs. Python values become
//! library values here (names of squares, encodings, methods), library
//! results become Python values (lists of square names, ints), and
//! library errors become Python exceptions: `ValueError` for bad input, `knightsat.KnightsatError` for the rest, and
//! `KeyboardInterrupt` when Ctrl-C stops a long solve or count.
//!
//! Long work (solve, count, puzzle) runs on a thread of its own with the
//! GIL released, while the calling thread looks for signals every
//! `SIGNAL_POLL`; on Ctrl-C it raises the request's
//! interrupt, waits for the work to end, and raises `KeyboardInterrupt`.

mod args;
mod errors;
mod formula;
mod jobs;
mod problem;
mod puzzles;

use pyo3::prelude::*;

use errors::KnightsatError;
use formula::{decode, dimacs, encode, Formula, FormulaClauses};
use jobs::{count, solve, tours, Tours};
use problem::{verify, Problem};
use puzzles::{puzzle, Puzzle};

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
