//! Solving in-process with varisat.

use crate::cnf::VarisatSink;
use crate::decode::tour_from_model;
use crate::encode::{encode, Options};
use crate::error::Error;
use crate::tour::Tour;

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A tour, decoded and verified.
    Tour(Tour),
    /// The formula is unsatisfiable: no tour meets the options.
    NoTour,
}

/// Encodes `options` straight into varisat (the same clauses [`write_cnf`]
/// writes), solves, and decodes and verifies the tour.
///
/// [`write_cnf`]: crate::cnf::dimacs::write_cnf
pub fn solve_in_process(options: &Options) -> Result<Outcome, Error> {
    options.validate()?;
    let mut sink = VarisatSink::new();
    encode(options, &mut sink);
    let vars = sink.vars();
    let satisfiable = sink
        .solver
        .solve()
        .map_err(|e| Error::Solver(e.to_string()))?;
    if !satisfiable {
        return Ok(Outcome::NoTour);
    }
    let model = sink
        .solver
        .model()
        .ok_or_else(|| Error::Solver("varisat reported SAT without a model".into()))?;
    let mut values = vec![None; vars + 1];
    for lit in model {
        values[lit.var().to_dimacs() as usize] = Some(lit.is_positive());
    }
    let tour = tour_from_model(options, vars, Some(vars), |v| {
        values.get(v).copied().flatten()
    })?;
    Ok(Outcome::Tour(tour))
}
