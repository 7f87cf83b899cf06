//! The commands that check what others made: `decode`, `verify`, `certify`.

use crate::failure::{Failure, Fallible};
use knightsat::error::{CnfError, EncodingError, SatError, TourError};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use knightsat::check_tour;
use knightsat::cnf::dimacs::{read_answer, Answer};
use knightsat::cnf_file::read_cnf_info;
use knightsat::encoding::decode::{check_cnf_body, tour_from_model};
use knightsat::encoding::Model;
use knightsat::error::Error;
use knightsat::model::problem::Problem;
use knightsat::runtime::input;
use knightsat::solve::Outcome;
use knightsat::Format;
use knightsat::{check_proof, Verdict};

use super::{emit, print_outcome};
use crate::args::ProblemArgs;
use crate::exit;
use crate::failure::OptionsConflict;

/// `decode`: a solver's output for a knightsat CNF, as a verified tour.
pub fn decode(cnf: &Path, solver_output: &Path, format: Format) -> Fallible<ExitCode> {
    let mut clauses = input::open(cnf)?;
    let info = read_cnf_info(&mut clauses).map_err(|error| Failure::in_file(cnf, error))?;
    let outcome = match read_answer(input::open(solver_output)?, info.vars)? {
        Answer::Unsat => {
            check_cnf_body(clauses, (info.vars, info.clauses), None)
                .map_err(|error| in_the_cnf(cnf, error))?;
            Outcome::NoTour
        }
        Answer::Unknown => return Err(Error::Sat(SatError::NoAnswer).into()),
        Answer::Sat(values) => {
            let encoding = info.encoding.prepare(&info.problem)?;
            let model = Model::new(values);
            let tour = tour_from_model(&*encoding, &model, Some(info.vars))?;
            // The tour may be one of the problem's and the model still be
            // another CNF's (another cube's): the clauses decide.
            let model = Some((&model, encoding.primary_vars()));
            check_cnf_body(clauses, (info.vars, info.clauses), model)
                .map_err(|error| in_the_cnf(cnf, error))?;
            Outcome::Tour(tour)
        }
    };
    print_outcome(outcome, format, &info.problem)
}

/// A fault of the CNF's clauses, named with its file as `count --cnf`
/// names it; a model that falsifies a clause is the answer's fault, and
/// stays as the library words it.
fn in_the_cnf(cnf: &Path, error: EncodingError) -> Failure {
    match error {
        EncodingError::Cnf(CnfError::ModelFalsifiesClause { .. }) => Error::from(error).into(),
        error => Failure::in_file(cnf, error),
    }
}

/// `verify`: a tour handed in, checked without SAT.
pub fn verify(problem: &ProblemArgs, tour: &Path) -> Fallible<ExitCode> {
    let given = problem.given()?;
    let text = input::read_text(tour)?;
    let closed = given.as_ref().map_or(problem.closed(), Problem::is_closed);
    let board = problem.given_board(given.as_ref())?;
    let tour = check_tour(&text, &board, closed, |board, closed| {
        let base = match &given {
            Some(given) => given.clone(),
            None => Problem::new(board),
        };
        problem.complete(base.closed(closed))
    })
    .map_err(|error| match error {
        // The puzzle asked for the closed tour, not --closed.
        Error::Tour(TourError::ClosedButFileSaysOpen { file }) if !problem.closed() => {
            OptionsConflict(format!(
                "the puzzle file says the tour is closed, but the {file} file says it is open"
            ))
            .into()
        }
        error => Failure::from(error),
    })?;
    emit(|out| {
        if let Some(graph) = tour.board.graph() {
            return writeln!(
                out,
                "valid Hamiltonian {} of the {graph}",
                if tour.closed { "cycle" } else { "path" },
            );
        }
        writeln!(
            out,
            "valid {} {} tour of the {} board ({} squares)",
            if tour.closed { "closed" } else { "open" },
            tour.board.leaper().name(),
            tour.board,
            tour.squares.len()
        )
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `certify`: a DRAT proof checked by `rate`.
pub fn certify(cnf: &Path, proof: &Path) -> Fallible<ExitCode> {
    match check_proof(cnf, proof)? {
        Verdict::Verified => {
            emit(|out| {
                writeln!(
                    out,
                    "verified: {} proves {} unsatisfiable",
                    proof.display(),
                    cnf.display()
                )
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Verdict::RefutedByPropagation => {
            emit(|out| {
                writeln!(
                    out,
                    "verified: unit propagation alone refutes {}, so it is unsatisfiable whatever {} says (rate cannot check proofs of such formulas)",
                    cnf.display(),
                    proof.display()
                )
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Verdict::Rejected(why) => {
            note!("knightsat: proof rejected by rate: {why}");
            Ok(ExitCode::from(exit::FAILURE))
        }
    }
}
