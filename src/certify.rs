//! Certificates of impossibility: DRAT proofs written by varisat, checked by
//! an independent checker (the `rate` crate's `rate` program).

use std::io::BufWriter;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::cnf_file::write_cnf;
use crate::encoding::EncodingConfig;
use crate::error::Error;
use crate::output::{commit_together, same_file, PendingFile};
use crate::problem::Problem;
use crate::solve::{on_worker, Outcome, Session};

/// Solves in-process (one shot, no assumptions) while varisat writes a DRAT
/// proof; the CNF the proof refers to comes from the same encoding.
///
/// Both files are written beside their names and put in place together,
/// only when there is no tour (then there is something to prove): when a
/// tour exists, or on an error, the time limit or a signal, the user's files
/// of those names are left as they were. `timeout` covers the whole work.
pub fn solve_with_proof(
    problem: &Problem,
    config: &EncodingConfig,
    proof: &Path,
    cnf: &Path,
    timeout: Option<Duration>,
) -> Result<Outcome, Error> {
    if same_file(proof, cnf) {
        return Err(Error::SameOutputTwice {
            path: proof.display().to_string(),
        });
    }
    let encoding = config.prepare(problem)?;
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
    let found = on_worker("proof", timeout, move || {
        write_cnf(&*encoding, cnf_writer)?;
        let mut session = Session::with_proof(encoding, BufWriter::new(proof_writer))?;
        let tour = session.next_tour()?;
        session.close_proof()?;
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
