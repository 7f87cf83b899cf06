//! Certificates of impossibility: DRAT proofs written by a built-in solver
//! (varisat or `CaDiCaL`), checked by an independent checker (the `rate`
//! crate's `rate` program).

use crate::error::{CnfError, RunError};
use crate::runtime::platform::end_with_parent;
use std::path::Path;
use std::process::Command;

use crate::cnf_file::write_cnf;
use crate::error::Error;
use crate::model::problem::Problem;
use crate::runtime::output::{commit_together, same_file, PendingFile};
use crate::runtime::stop::Stop;
use crate::sat::Setup;
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
        return Err(Error::Run(RunError::SameOutputTwice {
            path: proof.display().to_string(),
        }));
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
    let found = stop.within(request.timeout, &request.interrupt, || {
        write_cnf(&*encoding, cnf_writer)?;
        let setup = Setup {
            proof: Some(proof_writer),
            stoppable: request.may_stop(),
            ..Setup::new(&stop)
        };
        let mut session = request.session(encoding, setup)?;
        let tour = session.next_tour()?;
        session.finish_proof()?;
        Ok::<_, Error>(tour)
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
    /// Unit propagation alone refutes the CNF, so it is unsatisfiable
    /// whatever the proof says (varisat's proof of it is empty). `rate`
    /// crashes on such formulas, so knightsat propagates itself.
    RefutedByPropagation,
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
            return Err(Error::Run(RunError::CannotRead {
                path: path.display().to_string(),
                error,
            }));
        }
    }
    check_header(cnf)?;
    let mut command = Command::new("rate");
    command.arg(cnf).arg(proof);
    end_with_parent(&mut command);
    let output = command.output().map_err(|e| Error::CheckerMissing {
        program: "rate".into(),
        reason: match e.kind() {
            std::io::ErrorKind::NotFound => {
                "it is not on PATH: `cargo install rate@0.3.0` installs it".into()
            }
            _ => e.to_string(),
        },
    })?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if stdout.lines().any(|line| line.trim() == "s VERIFIED") {
        return Ok(Verdict::Verified);
    }
    // rate panics on a formula that unit propagation refutes, whatever the
    // proof; such a formula needs no proof.
    if refuted_by_propagation(cnf)? {
        return Ok(Verdict::RefutedByPropagation);
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    if let Some(status) = crashed(output.status, &stderr) {
        return Err(Error::CheckerCrashed {
            program: "rate".into(),
            status,
        });
    }
    let last = stdout
        .lines()
        .chain(stderr.lines())
        .rfind(|line| !line.trim().is_empty() && !line.starts_with("c "))
        .unwrap_or("no verdict")
        .to_string();
    Ok(Verdict::Rejected(last))
}

/// How a checker that ended without a verdict crashed: a Rust panic (exit
/// status 101, "panicked at" on stderr) or a signal. `None` for an ordinary
/// exit, whose last words are a rejection.
fn crashed(status: std::process::ExitStatus, stderr: &str) -> Option<String> {
    use std::os::unix::process::ExitStatusExt;
    if let Some(signal) = status.signal() {
        return Some(format!("killed by signal {signal}"));
    }
    let code = status.code()?;
    (code == 101 || stderr.contains("panicked at")).then(|| format!("exit status {code}"))
}

/// Holds the CNF at `path` to its `p cnf VARS CLAUSES` header, as `kissat
/// --strict` does: a proof checked against clauses its header disowns
/// would verify a formula other than the one the file says it is.
fn check_header(path: &Path) -> Result<(), Error> {
    use std::io::{BufRead, Read};
    let in_file = |why: String| Error::Cnf(CnfError::BadCnf(format!("{}: {why}", path.display())));
    let mut reader = crate::runtime::input::open(path)?;
    let mut line = String::new();
    let header = loop {
        line.clear();
        let read = Read::by_ref(&mut reader)
            .take(crate::runtime::input::MAX_TEXT_BYTES)
            .read_line(&mut line)
            .map_err(|e| Error::io("reading the CNF", e))?;
        let text = line.trim_end_matches(['\n', '\r']);
        if read == 0 || !(text.trim().is_empty() || text.starts_with('c')) {
            break text.starts_with('p').then(|| text.to_string());
        }
    };
    let header = header
        .ok_or_else(|| in_file("no 'p cnf VARS CLAUSES' header before the clauses".into()))?;
    let counts = header
        .strip_prefix("p cnf ")
        .and_then(crate::cnf::dimacs::header_counts)
        .ok_or_else(|| in_file(crate::cnf::dimacs::bad_header(&header)))?;
    crate::encoding::decode::check_cnf_body(reader, counts, None).map_err(
        |error| match Error::from(error) {
            Error::Cnf(CnfError::BadCnf(why)) => in_file(why),
            other => other,
        },
    )
}

/// Whether unit propagation alone derives a conflict from the CNF at
/// `path` (then it is unsatisfiable, and the empty clause is a proof).
/// Two watched literals per clause; the clauses are held in memory.
fn refuted_by_propagation(path: &Path) -> Result<bool, Error> {
    let reader = crate::runtime::input::open(path)?;
    let mut literals: Vec<i32> = Vec::new();
    let mut starts: Vec<usize> = vec![0];
    let mut units: Vec<i32> = Vec::new();
    let mut empty = false;
    let mut vars = 0;
    crate::cnf::dimacs::for_each_clause(reader, false, |clause| {
        let mut clause = clause.to_vec();
        clause.sort_unstable_by_key(|&lit| (lit.unsigned_abs(), lit));
        clause.dedup();
        if clause.windows(2).any(|w| w[0] == -w[1]) {
            return Ok(()); // a tautology constrains nothing
        }
        vars = clause
            .iter()
            .fold(vars, |v, &lit| v.max(lit.unsigned_abs() as usize));
        match clause[..] {
            [] => empty = true,
            [unit] => units.push(unit),
            _ => {
                literals.extend_from_slice(&clause);
                starts.push(literals.len());
            }
        }
        Ok(())
    })
    .map_err(|error| match Error::from(error) {
        Error::Cnf(CnfError::BadCnf(why)) => {
            Error::Cnf(CnfError::BadCnf(format!("{}: {why}", path.display())))
        }
        other => other,
    })?;
    if empty {
        return Ok(true);
    }
    Ok(Propagation::new(literals, &starts, vars).refutes(&units))
}

/// Unit propagation over clauses of two literals or more.
struct Propagation {
    literals: Vec<i32>,
    /// Each clause's range in `literals`; its first two literals are watched.
    ranges: Vec<(usize, usize)>,
    /// The clauses watching each literal, by [`Propagation::slot`].
    watches: Vec<Vec<usize>>,
    /// Each variable's value: 0 unknown, 1 true, -1 false.
    values: Vec<i8>,
}

impl Propagation {
    fn new(literals: Vec<i32>, starts: &[usize], vars: usize) -> Propagation {
        let ranges: Vec<(usize, usize)> = starts.windows(2).map(|w| (w[0], w[1])).collect();
        let mut watches = vec![Vec::new(); 2 * vars + 2];
        for (clause, &(start, _)) in ranges.iter().enumerate() {
            watches[Self::slot(literals[start])].push(clause);
            watches[Self::slot(literals[start + 1])].push(clause);
        }
        Propagation {
            literals,
            ranges,
            watches,
            values: vec![0; vars + 1],
        }
    }

    fn slot(lit: i32) -> usize {
        2 * lit.unsigned_abs() as usize + usize::from(lit < 0)
    }

    fn value(&self, lit: i32) -> i8 {
        let value = self.values[lit.unsigned_abs() as usize];
        if lit < 0 {
            -value
        } else {
            value
        }
    }

    /// Sets `lit` true; false when it is already false (a conflict).
    fn assign(&mut self, lit: i32, trail: &mut Vec<i32>) -> bool {
        match self.value(lit) {
            0 => {
                self.values[lit.unsigned_abs() as usize] = if lit > 0 { 1 } else { -1 };
                trail.push(lit);
                true
            }
            value => value > 0,
        }
    }

    /// Whether asserting `units` and propagating ends in a conflict.
    fn refutes(mut self, units: &[i32]) -> bool {
        let mut trail = Vec::new();
        for &unit in units {
            if !self.assign(unit, &mut trail) {
                return true;
            }
        }
        let mut next = 0;
        while next < trail.len() {
            let falsified = -trail[next];
            next += 1;
            let watching = std::mem::take(&mut self.watches[Self::slot(falsified)]);
            let mut kept = Vec::with_capacity(watching.len());
            let mut conflict = false;
            for (i, &clause) in watching.iter().enumerate() {
                if conflict {
                    kept.extend_from_slice(&watching[i..]);
                    break;
                }
                let (start, end) = self.ranges[clause];
                if self.literals[start] == falsified {
                    self.literals.swap(start, start + 1);
                }
                let other = self.literals[start];
                if self.value(other) > 0 {
                    kept.push(clause);
                    continue;
                }
                let replacement = (start + 2..end).find(|&k| self.value(self.literals[k]) >= 0);
                if let Some(k) = replacement {
                    self.literals.swap(start + 1, k);
                    self.watches[Self::slot(self.literals[start + 1])].push(clause);
                    continue;
                }
                kept.push(clause);
                conflict = !self.assign(other, &mut trail);
            }
            self.watches[Self::slot(falsified)] = kept;
            if conflict {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refutes(cnf: &str) -> bool {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.cnf");
        std::fs::write(&path, cnf).unwrap();
        refuted_by_propagation(&path).unwrap()
    }

    #[test]
    fn propagation_finds_conflicts_and_only_conflicts() {
        assert!(refutes("p cnf 2 3\n1 0\n-1 2 0\n-2 0\n"));
        assert!(refutes("p cnf 1 1\n0\n"));
        // A chain through longer clauses, given out of order.
        assert!(refutes(
            "p cnf 4 5\n-3 -1 4 0\n-4 -2 0\n1 0\n-1 3 0\n2\n0\n"
        ));
        // Satisfiable, and unsatisfiable but not by propagation alone.
        assert!(!refutes("p cnf 2 2\n1 2 0\n-1 2 0\n"));
        assert!(!refutes("p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n"));
        // Tautologies and repeated literals change nothing.
        assert!(refutes("p cnf 2 3\n1 1 0\n2 -2 0\n-1 0\n"));
    }
}
