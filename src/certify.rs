//! Certificates of impossibility: DRAT proofs written by a built-in solver
//! (varisat or `CaDiCaL`), checked by an independent checker (the `rate`
//! crate's `rate` program).

use std::path::Path;
use std::process::Command;

use crate::cnf_file::write_cnf;
use crate::error::Error;
use crate::output::{commit_together, same_file, PendingFile};
use crate::problem::Problem;
use crate::sat::{Setup, Stop};
use crate::solve::{Outcome, Request};

/// Solves in-process (one shot, no assumptions) with `request`'s encoding
/// and built-in solver while the solver writes a DRAT proof; the CNF the
/// proof refers to comes from the same encoding.
///
/// Both files are written beside their names and put in place together,
/// only when there is no tour (then there is something to prove): when a
/// tour exists, or on an error, the time limit or a signal, the user's files
/// of those names are left as they were. `request.timeout` covers the whole
/// work, and the solver has stopped when this returns.
pub fn solve_with_proof(
    problem: &Problem,
    request: &Request,
    proof: &Path,
    cnf: &Path,
) -> Result<Outcome, Error> {
    if same_file(proof, cnf) {
        return Err(Error::SameOutputTwice {
            path: proof.display().to_string(),
        });
    }
    let encoding = request.config.prepare(problem)?;
    let mut cnf_file = PendingFile::create(cnf)?;
    let mut proof_file = PendingFile::create(proof)?;
    let cnf_writer = cnf_file
        .file()
        .try_clone()
        .map_err(|e| Error::io(format!("writing {}", cnf.display()), e))?;
    let proof_writer = proof_file
        .file()
        .try_clone()
        .map_err(|e| Error::io(format!("writing {}", proof.display()), e))?;
    let stop = Stop::new();
    let found = stop.within(request.timeout, || {
        write_cnf(&*encoding, cnf_writer)?;
        let setup = Setup {
            proof: Some(proof_writer),
            stoppable: request.timeout.is_some(),
            ..Setup::new(&stop)
        };
        let mut session = request.session(encoding, setup)?;
        let tour = session.next_tour()?;
        session.finish_proof()?;
        Ok(tour)
    })?;
    if let Some(tour) = found {
        return Ok(Outcome::Tour(tour));
    }
    commit_together(vec![cnf_file, proof_file])?;
    Ok(Outcome::NoTour)
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
        let problem = match std::fs::metadata(path) {
            Err(error) => Some(error),
            Ok(meta) if meta.is_dir() => Some(std::io::Error::from_raw_os_error(libc::EISDIR)),
            Ok(meta) if !meta.is_file() => Some(std::io::Error::other(
                "not a regular file (the checker reads it more than once)",
            )),
            Ok(_) => None,
        };
        if let Some(error) = problem {
            return Err(Error::CannotRead {
                path: path.display().to_string(),
                error,
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
