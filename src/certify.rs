//! Certificates of impossibility: DRAT proofs written by varisat, checked by
//! an independent checker (the `rate` crate's `rate` program).

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::process::Command;

use crate::cnf_file::write_cnf_file;
use crate::encoding::EncodingConfig;
use crate::error::Error;
use crate::problem::Problem;
use crate::solve::{Outcome, Session};

/// Solves in-process (one shot, no assumptions) while varisat writes a DRAT
/// proof to `proof`; the CNF the proof refers to is written to `cnf` from the
/// same encoding. When a tour exists there is nothing to prove: the proof
/// file is removed and the tour returned.
pub fn solve_with_proof(
    problem: &Problem,
    config: &EncodingConfig,
    proof: &Path,
    cnf: &Path,
) -> Result<Outcome, Error> {
    let encoding = config.prepare(problem)?;
    write_cnf_file(&*encoding, cnf)?;
    let context = || format!("writing {}", proof.display());
    let file = File::create(proof).map_err(|e| Error::io(context(), e))?;
    let mut session = Session::with_proof(encoding, BufWriter::new(file));
    let outcome = session.next_tour()?;
    session.close_proof()?;
    drop(session);
    match outcome {
        Some(tour) => {
            std::fs::remove_file(proof).map_err(|e| Error::io(context(), e))?;
            Ok(Outcome::Tour(tour))
        }
        None => Ok(Outcome::NoTour),
    }
}

/// What the checker concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The proof shows the CNF unsatisfiable.
    Verified,
    /// The proof does not check; the checker's last words.
    Rejected(String),
}

/// Checks a DRAT proof (text or binary, from varisat, kissat or `CaDiCaL`)
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
