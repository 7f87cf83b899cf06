//! From a satisfying assignment back to a verified tour.

use std::io::BufRead;

use crate::cnf::dimacs::for_each_clause;
use crate::cnf::CnfError;
use crate::encoding::EncodingError;
use crate::encoding::{Encoding, Model};

use crate::model::problem::Problem;
use crate::model::verify::verify;
use crate::tour::Tour;

/// Reads the tour out of `model` and verifies it against the problem, with
/// the start the encoding fixed (a closed tour's default start included).
///
/// `declared_vars` is the CNF header's variable count when known: a model
/// that assigns more variables belongs to another CNF. The model is never
/// trusted: a step on no square or on two, or a sequence that breaks a rule,
/// is an error naming the problem.
pub fn tour_from_model(
    encoding: &dyn Encoding,
    model: &Model,
    declared_vars: Option<usize>,
) -> Result<Tour, EncodingError> {
    let problem = encoding.problem();
    let highest = model.highest_var();
    if let Some(declared) = declared_vars.filter(|&declared| highest > declared) {
        return Err(EncodingError::BadModel(format!(
            "it assigns variable {highest}, but the CNF ({} board) has only {declared}: is it for another CNF?",
            problem.board()
        )));
    }
    tour_from_squares(encoding, encoding.squares_of(model)?)
}

/// The tour visiting `squares`, verified against the problem of
/// `encoding`: squares that break a rule are an error ([`EncodingError::BadModel`]),
/// like a model that puts a step on no square.
pub(crate) fn tour_from_squares(
    encoding: &dyn Encoding,
    squares: Vec<usize>,
) -> Result<Tour, EncodingError> {
    let problem = encoding.problem();
    let squares = turned_to_the_default_start(problem, squares);
    verify(&squares, &problem.rooted())
        .map_err(|violation| EncodingError::BadModel(violation.to_string()))?;
    Ok(Tour {
        board: problem.board().clone(),
        closed: problem.is_closed(),
        squares,
    })
}

/// `squares` turned round, as a closed tour, to start on the problem's
/// default start where it has one ([`Problem::start_fixed_by_default`])
/// and the encoding started elsewhere
/// ([`Encoding::keeps_the_default_start`]); anything else as it is.
fn turned_to_the_default_start(problem: &Problem, mut squares: Vec<usize>) -> Vec<usize> {
    if problem.start_fixed_by_default() {
        if let Some(start) = problem.effective_start() {
            if let Some(at) = squares.iter().position(|&s| s == start) {
                squares.rotate_left(at);
            }
        }
    }
    squares
}

/// Checks the DIMACS body of a CNF (`clauses`, read one at a time) against
/// its header, as strictly as `kissat --strict`: exactly the header's
/// clauses (`p cnf VARS CLAUSES`, as [`read_cnf_info`](crate::cnf_file::read_cnf_info)
/// read it) over variables up to its `VARS` ([`CnfError::BadCnf`] otherwise).
///
/// Given a model said to satisfy the CNF, with the encoding's number of
/// primary variables, also checks that it leaves no clause false. A model
/// of another CNF can decode to a tour of the same problem, say one of
/// another cube's CNF: only the clauses tell them apart, so the first
/// clause whose literals are all false is an error
/// ([`CnfError::ModelFalsifiesClause`]). A variable the model omits counts as
/// false when it is one of the primary variables (the encoding's own, which
/// decoding reads as false when omitted, as `MiniSat` omits them) and as
/// unknown otherwise (an auxiliary variable: a hand-written model may leave
/// them all out).
pub fn check_cnf_body(
    clauses: impl BufRead,
    header: (usize, usize),
    model: Option<(&Model, usize)>,
) -> Result<(), EncodingError> {
    let (vars, expected) = header;
    let value = |model: &Model, primary_vars: usize, var: usize| {
        model
            .value(var)
            .or_else(|| (var <= primary_vars).then_some(false))
    };
    let mut number = 0;
    let found = for_each_clause(clauses, true, |clause| {
        number += 1;
        if let Some(lit) = clause.iter().find(|lit| lit.unsigned_abs() as usize > vars) {
            return Err(CnfError::BadCnf(format!(
                "clause {number} has the literal {lit}, beyond variable {vars}, the last the header declares"
            )));
        }
        let Some((model, primary_vars)) = model else {
            return Ok(());
        };
        let refuted = clause
            .iter()
            .all(|&lit| value(model, primary_vars, lit.unsigned_abs() as usize) == Some(lit < 0));
        if !refuted {
            return Ok(());
        }
        let literals: Vec<String> = clause.iter().map(ToString::to_string).collect();
        Err(CnfError::ModelFalsifiesClause {
            clause: number,
            literals: literals.join(" "),
        })
    })?;
    if found != expected {
        let clauses = |n: usize| format!("{n} clause{}", if n == 1 { "" } else { "s" });
        return Err(EncodingError::Cnf(CnfError::BadCnf(format!(
            "the header promises {}, the file holds {found}",
            clauses(expected)
        ))));
    }
    Ok(())
}
