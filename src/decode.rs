//! From a satisfying assignment back to a verified tour.

use crate::encode::{Domain, Options};
use crate::error::Error;
use crate::tour::{Rules, Tour};

/// The rules a tour found under `options` must keep, including the start
/// fixed by default for closed tours.
pub fn rules(options: &Options) -> Rules {
    Rules {
        board: options.board.clone(),
        closed: options.closed,
        start: options.effective_start(),
        end: options.end,
        clues: options.clues.clone(),
    }
}

/// Reads the tour out of an assignment of the x variables and verifies it.
///
/// `value(v)` gives the value of the variable with DIMACS number v, or `None`
/// where the model does not say (MiniSat leaves out variables in no clause);
/// such a variable counts as false, since only true x variables place the
/// knight. Variables the options prune occur in no clause, so their values
/// mean nothing and are not read. `declared_vars` is the CNF header's variable
/// count when known: a model that assigns more variables belongs to another CNF.
/// The model is never trusted: a step on no square or on two, or a sequence
/// that breaks a rule, is an error naming the problem.
pub fn tour_from_model(
    options: &Options,
    model_vars: usize,
    declared_vars: Option<usize>,
    value: impl Fn(usize) -> Option<bool>,
) -> Result<Tour, Error> {
    let domain = Domain::new(options, &options.board.move_graph());
    tour_in_domain(options, &domain, model_vars, declared_vars, value)
}

/// [`tour_from_model`] with the options' [`Domain`] already worked out, for
/// callers that decode many models of one formula (counting).
pub fn tour_in_domain(
    options: &Options,
    domain: &Domain,
    model_vars: usize,
    declared_vars: Option<usize>,
    value: impl Fn(usize) -> Option<bool>,
) -> Result<Tour, Error> {
    let board = &options.board;
    let vars = options.vars();
    if let Some(declared) = declared_vars.filter(|&declared| model_vars > declared) {
        return Err(Error::BadModel(format!(
            "it assigns variable {model_vars}, but the CNF ({} board) has only {declared}: is it for another CNF?",
            board
        )));
    }
    let mut squares = Vec::with_capacity(vars.squares);
    for step in 0..vars.squares {
        let mut on = Vec::new();
        let mut unassigned = 0;
        for square in (0..vars.squares).filter(|&square| domain.is_live(step, square)) {
            match value(vars.x(step, square).to_dimacs() as usize) {
                Some(true) => on.push(square),
                Some(false) => {}
                None => unassigned += 1,
            }
        }
        match on[..] {
            [square] => squares.push(square),
            [] if unassigned > 0 => {
                return Err(Error::BadModel(format!(
                    "after {step} moves the knight is on no square ({unassigned} of the step's variables are not in the model: truncated, or for a smaller board?)"
                )))
            }
            [] => {
                return Err(Error::BadModel(format!(
                    "after {step} moves the knight is on no square"
                )))
            }
            [a, b, ..] => {
                return Err(Error::BadModel(format!(
                    "after {step} moves the knight is on {} and {} at once",
                    board.name(a),
                    board.name(b)
                )))
            }
        }
    }
    crate::tour::verify(&squares, &rules(options))?;
    Ok(Tour {
        board: board.clone(),
        closed: options.closed,
        squares,
    })
}
