//! Certificates of impossibility: DRAT proofs written by varisat, checked by
//! an independent checker (the `rate` crate's `rate` program).

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::process::Command;

use crate::cnf::dimacs::write_cnf_file;
use crate::cnf::VarisatSink;
use crate::encode::{encode, Domain, Options};
use crate::error::Error;
use crate::solve::{tour_from_solver, Outcome};

/// Solves in-process (one shot, no assumptions) while varisat writes a DRAT
/// proof to `proof`; the CNF the proof refers to is written to `cnf` from the
/// same encoder. When a tour exists there is nothing to prove: the proof file
/// is removed and the tour returned.
pub fn solve_with_proof(options: &Options, proof: &Path, cnf: &Path) -> Result<Outcome, Error> {
    options.validate()?;
    write_cnf_file(options, cnf)?;
    let context = || format!("writing {}", proof.display());
    let file = File::create(proof).map_err(|e| Error::io(context(), e))?;
    let outcome = {
        let mut sink = VarisatSink::new();
        sink.solver
            .write_proof(BufWriter::new(file), varisat::ProofFormat::Drat);
        encode(options, &mut sink);
        let satisfiable = sink
            .solver
            .solve()
            .map_err(|e| Error::Solver(e.to_string()))?;
        sink.solver
            .close_proof()
            .map_err(|e| Error::Solver(e.to_string()))?;
        if satisfiable {
            let domain = Domain::new(options, &options.board.move_graph());
            Outcome::Tour(tour_from_solver(options, &domain, &sink)?)
        } else {
            Outcome::NoTour
        }
    };
    if matches!(outcome, Outcome::Tour(_)) {
        std::fs::remove_file(proof).map_err(|e| Error::io(context(), e))?;
    }
    Ok(outcome)
}

/// What the checker concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The proof shows the CNF unsatisfiable.
    Verified,
    /// The proof does not check; the checker's last words.
    Rejected(String),
}

/// Checks a DRAT proof (text or binary, from varisat, kissat or CaDiCaL)
/// against a CNF with the `rate` checker, which must be on PATH.
pub fn check_proof(cnf: &Path, proof: &Path) -> Result<Verdict, Error> {
    for path in [cnf, proof] {
        if !path.is_file() {
            return Err(Error::CannotRead {
                path: path.display().to_string(),
                error: std::io::Error::from(std::io::ErrorKind::NotFound),
            });
        }
    }
    let output = Command::new("rate")
        .arg(cnf)
        .arg(proof)
        .output()
        .map_err(|e| Error::SolverMissing {
            program: "rate".into(),
            reason: match e.kind() {
                std::io::ErrorKind::NotFound => {
                    "the proof checker is not on PATH (scripts/install-solvers.sh installs it)"
                        .into()
                }
                _ => e.to_string(),
            },
        })?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if stdout.lines().any(|line| line.trim() == "s VERIFIED") {
        return Ok(Verdict::Verified);
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let last = stdout
        .lines()
        .chain(stderr.lines())
        .rfind(|line| !line.trim().is_empty() && !line.starts_with("c "))
        .unwrap_or("no verdict")
        .to_string();
    Ok(Verdict::Rejected(last))
}
