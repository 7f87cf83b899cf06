//! Running an external SAT solver program on the emitted CNF.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use wait_timeout::ChildExt;

use super::Outcome;
use crate::cnf::dimacs::{read_answer, Answer};
use crate::cnf_file::write_cnf;
use crate::decode::tour_from_model;
use crate::encoding::{Encoding, Model};
use crate::error::Error;

/// The solvers knightsat knows how to call and read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverKind {
    /// kissat: `kissat -q FILE`, SAT-competition output.
    Kissat,
    /// `CaDiCaL`: `cadical -q FILE`, SAT-competition output.
    Cadical,
    /// `MiniSat`: `minisat -verb=0 FILE RESULT`, model in the result file.
    Minisat,
    /// picosat: `picosat FILE`, SAT-competition output.
    Picosat,
    /// Any other program: `PROGRAM FILE`, SAT-competition output expected.
    Other,
}

impl SolverKind {
    /// Recognises a known solver by the program's file name (`kissat`,
    /// `/usr/bin/cadical`, `minisat-2.2`…).
    pub fn of_program(program: &str) -> SolverKind {
        let name = Path::new(program)
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        [
            ("kissat", SolverKind::Kissat),
            ("cadical", SolverKind::Cadical),
            ("minisat", SolverKind::Minisat),
            ("picosat", SolverKind::Picosat),
        ]
        .into_iter()
        .find(|(prefix, _)| name.starts_with(prefix))
        .map_or(SolverKind::Other, |(_, kind)| kind)
    }
}

/// A solver program with the extra arguments to pass it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSolver {
    /// The program: a name looked up on PATH, or a path.
    pub program: String,
    /// How to call it and read its answer.
    pub kind: SolverKind,
    /// Arguments added after the defaults, before the file names.
    pub extra_args: Vec<String>,
}

impl ExternalSolver {
    /// A solver program, its kind recognised from its name.
    pub fn new(program: &str, extra_args: Vec<String>) -> ExternalSolver {
        ExternalSolver {
            program: program.to_string(),
            kind: SolverKind::of_program(program),
            extra_args,
        }
    }

    fn command(&self, cnf: &Path, result: &Path) -> Command {
        let mut command = Command::new(&self.program);
        match self.kind {
            SolverKind::Kissat | SolverKind::Cadical => {
                command.arg("-q");
            }
            SolverKind::Minisat => {
                command.arg("-verb=0");
            }
            SolverKind::Picosat | SolverKind::Other => {}
        }
        command.args(&self.extra_args).arg(cnf);
        if self.kind == SolverKind::Minisat {
            command.arg(result);
        }
        command
    }

    fn failed(&self, detail: impl Into<String>) -> Error {
        Error::SolverFailed {
            program: self.program.clone(),
            detail: detail.into(),
        }
    }

    /// Writes the encoding's CNF to a temporary file, runs the solver on
    /// it (killing it when `timeout` runs out), and decodes and verifies its
    /// answer. Temporary files are removed whatever happens.
    pub fn solve(
        &self,
        encoding: &dyn Encoding,
        timeout: Option<Duration>,
    ) -> Result<Outcome, Error> {
        let dir = tempfile::Builder::new()
            .prefix("knightsat-")
            .tempdir()
            .map_err(|e| Error::io("creating a temporary directory", e))?;
        let cnf = dir.path().join("tour.cnf");
        let result = dir.path().join("result.txt");
        let stdout = dir.path().join("stdout.txt");
        let stderr = dir.path().join("stderr.txt");
        let create = |path: &PathBuf| {
            File::create(path).map_err(|e| Error::io(format!("creating {}", path.display()), e))
        };
        let stats = write_cnf(encoding, create(&cnf)?)?;

        let mut child = self
            .command(&cnf, &result)
            .stdin(Stdio::null())
            .stdout(create(&stdout)?)
            .stderr(create(&stderr)?)
            .spawn()
            .map_err(|e| Error::SolverMissing {
                program: self.program.clone(),
                reason: match e.kind() {
                    std::io::ErrorKind::NotFound => {
                        "not found (install it or give its path)".to_string()
                    }
                    _ => e.to_string(),
                },
            })?;
        let status = match timeout {
            None => child.wait(),
            Some(limit) => match child.wait_timeout(limit) {
                Ok(Some(status)) => Ok(status),
                Ok(None) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(Error::Timeout {
                        seconds: limit.as_secs_f64(),
                    });
                }
                Err(e) => Err(e),
            },
        }
        .map_err(|e| self.failed(format!("waiting for it: {e}")))?;

        let code = status.code();
        if !matches!(code, Some(0 | 10 | 20)) {
            let last_words = std::fs::read_to_string(&stderr).unwrap_or_default();
            let last_line = last_words
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            let how = code.map_or_else(
                || "was killed by a signal".to_string(),
                |c| format!("exited with status {c}"),
            );
            return Err(self.failed(if last_line.is_empty() {
                how
            } else {
                format!("{how}: {last_line}")
            }));
        }
        let answer_file = if self.kind == SolverKind::Minisat {
            &result
        } else {
            &stdout
        };
        let reader = File::open(answer_file)
            .map(BufReader::new)
            .map_err(|e| self.failed(format!("no answer file: {e}")))?;
        let answer =
            read_answer(reader).map_err(|e| self.failed(format!("printed nothing usable: {e}")))?;
        match (answer, code) {
            (Answer::Unsat, Some(0 | 20)) => Ok(Outcome::NoTour),
            (Answer::Unknown, _) => Err(Error::NoAnswer),
            (Answer::Sat(model), Some(0 | 10)) => {
                let tour = tour_from_model(encoding, &Model::new(model), Some(stats.vars))
                    .map_err(|e| self.failed(format!("its model is wrong: {e}")))?;
                Ok(Outcome::Tour(tour))
            }
            (_, code) => Err(self.failed(format!(
                "its exit status {} contradicts its answer",
                code.unwrap_or(-1)
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_solvers_are_recognised_by_file_name() {
        assert_eq!(SolverKind::of_program("kissat"), SolverKind::Kissat);
        assert_eq!(
            SolverKind::of_program("/opt/x/bin/cadical"),
            SolverKind::Cadical
        );
        assert_eq!(SolverKind::of_program("minisat-2.2"), SolverKind::Minisat);
        assert_eq!(SolverKind::of_program("picosat"), SolverKind::Picosat);
        assert_eq!(SolverKind::of_program("./my-solver"), SolverKind::Other);
    }
}
