//! An external SAT solver program behind the seam: the clauses so far are
//! kept, and each solve writes them (with the assumptions as unit clauses)
//! to a private temporary CNF and runs the program on it, in a process
//! group of its own that is killed when the [`Stop`](super::Stop) is raised.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use super::{sink_vars_by_intake, Intake, SatResult, SatSolver, Setup};
use crate::cnf::dimacs::{read_answer, Answer};
use crate::cnf::{ClauseSink, Lit};
use crate::encoding::Model;
use crate::sat::SatError;

use crate::runtime::cleanup::{clear_dead_dirs, owned_prefix, ProcessGroup, TempPath};
use crate::runtime::platform::end_with_parent;
use crate::runtime::RunError;

/// How often a running program is checked for an exit or a stop.
const POLL: Duration = Duration::from_millis(5);
/// How a run's temporary directory is named: the prefix, the process's
/// id, a dash, then random letters; a directory left by a process that
/// was killed outright is removed by the next run ([`clear_dead_dirs`]).
const TEMP_PREFIX: &str = "knightsat-solver-";

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
    pub(crate) fn of_program(program: &str) -> SolverKind {
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
    pub(crate) fn new(program: &str, extra_args: Vec<String>) -> ExternalSolver {
        ExternalSolver {
            program: program.to_string(),
            kind: SolverKind::of_program(program),
            extra_args,
        }
    }

    fn failed(&self, detail: impl Into<String>) -> SatError {
        SatError::SolverFailed {
            program: self.program.clone(),
            detail: detail.into(),
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

    /// Starts a run of this program: a private temporary directory for
    /// its files, removed when the run ends (or the process is stopped).
    pub(crate) fn start(&self, setup: Setup) -> Result<ExternalRun, SatError> {
        let parent = std::env::temp_dir();
        clear_dead_dirs(&parent, TEMP_PREFIX);
        let (dir, registered) = TempPath::create(|| {
            tempfile::Builder::new()
                .prefix(&owned_prefix(TEMP_PREFIX))
                .tempdir_in(&parent)
        })
        .map_err(|e| RunError::io("creating a temporary directory", e))?;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))
            .map_err(|e| RunError::io("creating a temporary directory", e))?;
        Ok(ExternalRun {
            solver: self.clone(),
            intake: Intake::new(setup.stop),
            clauses: Vec::new(),
            clause_count: 0,
            model: None,
            _registered: registered,
            dir,
        })
    }
}

/// A solver program and the clauses given to it so far.
pub struct ExternalRun {
    solver: ExternalSolver,
    intake: Intake,
    /// The clauses in DIMACS numbers, each ended by 0.
    clauses: Vec<i32>,
    clause_count: usize,
    model: Option<Model>,
    // Unregistered before the directory is removed (fields drop in order).
    _registered: TempPath,
    dir: tempfile::TempDir,
}

impl ClauseSink for ExternalRun {
    fn add_clause(&mut self, clause: &[Lit]) {
        if !self.intake.open() {
            return;
        }
        self.clauses
            .extend(clause.iter().map(|lit| lit.to_dimacs() as i32));
        self.clauses.push(0);
        self.clause_count += 1;
    }

    sink_vars_by_intake!();
}

impl SatSolver for ExternalRun {
    fn name(&self) -> &str {
        &self.solver.program
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<SatResult, SatError> {
        self.model = None;
        if self.intake.is_stopped() {
            return Ok(SatResult::Stopped);
        }
        let cnf = self.dir.path().join("tour.cnf");
        if !self.write_cnf(&cnf, assumptions)? {
            return Ok(SatResult::Stopped);
        }
        let Some(answer) = self.run(&cnf)? else {
            return Ok(SatResult::Stopped);
        };
        match answer {
            Answer::Unsat => Ok(SatResult::Unsat),
            Answer::Unknown => Err(SatError::NoAnswer),
            Answer::Sat(values) => {
                self.model = Some(Model::new(values));
                Ok(SatResult::Sat)
            }
        }
    }

    fn model(&mut self) -> Result<Model, SatError> {
        self.model
            .clone()
            .ok_or_else(|| self.solver.failed("no model to read"))
    }
}

impl ExternalRun {
    /// Writes the clauses so far, and `assumptions` as unit clauses;
    /// `false` when the stop was raised before the file was whole (a large
    /// board's file takes seconds to write, which a time limit must not wait
    /// for).
    fn write_cnf(&self, path: &Path, assumptions: &[Lit]) -> Result<bool, SatError> {
        let fail = |e| RunError::io(format!("writing {}", path.display()), e);
        let mut out = BufWriter::new(File::create(path).map_err(fail)?);
        let mut number = itoa::Buffer::new();
        writeln!(
            out,
            "p cnf {} {}",
            self.intake.count(),
            self.clause_count + assumptions.len()
        )
        .map_err(fail)?;
        for chunk in self.clauses.chunks(1 << 16) {
            if self.intake.is_stopped() {
                return Ok(false);
            }
            for &lit in chunk {
                let text = number.format(lit);
                out.write_all(text.as_bytes()).map_err(fail)?;
                out.write_all(if lit == 0 { b"\n" } else { b" " })
                    .map_err(fail)?;
            }
        }
        for lit in assumptions {
            writeln!(out, "{} 0", lit.to_dimacs()).map_err(fail)?;
        }
        out.flush().map_err(fail)?;
        Ok(true)
    }

    /// Runs the program on `cnf` and reads its answer; `None` when the run
    /// was stopped (its process group is killed first).
    fn run(&self, cnf: &Path) -> Result<Option<Answer>, SatError> {
        let dir = self.dir.path();
        let result = dir.join("result.txt");
        let stdout = dir.join("stdout.txt");
        let stderr = dir.join("stderr.txt");
        let create = |path: &PathBuf| {
            File::create(path).map_err(|e| RunError::io(format!("creating {}", path.display()), e))
        };
        let mut command = self.solver.command(cnf, &result);
        command
            .stdin(Stdio::null())
            .stdout(create(&stdout)?)
            .stderr(create(&stderr)?)
            .process_group(0);
        end_with_parent(&mut command);
        let mut child = command.spawn().map_err(|e| SatError::SolverMissing {
            program: self.solver.program.clone(),
            reason: match e.kind() {
                std::io::ErrorKind::NotFound => {
                    "not found (install it or give its path)".to_string()
                }
                _ if Path::new(&self.solver.program).is_dir() => {
                    "it is a directory, not a program".to_string()
                }
                _ => e.to_string(),
            },
        })?;
        // Dropping the guard kills whatever the solver started and left
        // running, on every way out of here.
        let group = ProcessGroup::register(child.id());
        let waited = self.wait(&mut child, &[&stdout, &stderr, &result]);
        let Some(status) = waited.as_ref().ok().copied().flatten() else {
            drop(group);
            // The group is killed: collect the exit so no zombie remains.
            let _ = child.wait();
            return waited.map(|_| None);
        };
        drop(group);
        let code = status.code();
        let solver = &self.solver;
        if !matches!(code, Some(0 | 10 | 20)) {
            let last_line = last_line_of(&stderr);
            let how = code.map_or_else(
                || "was killed by a signal".to_string(),
                |c| format!("exited with status {c}"),
            );
            return Err(solver.failed(if last_line.is_empty() {
                how
            } else {
                format!("{how}: {last_line}")
            }));
        }
        let answer_file = if solver.kind == SolverKind::Minisat {
            &result
        } else {
            &stdout
        };
        let reader = File::open(answer_file)
            .map(BufReader::new)
            .map_err(|e| solver.failed(format!("no answer file: {e}")))?;
        let answer = read_answer(reader, self.intake.count())
            .map_err(|e| solver.failed(format!("printed nothing usable: {e}")))?;
        match (&answer, code) {
            (Answer::Unsat, Some(0 | 20))
            | (Answer::Sat(_), Some(0 | 10))
            | (Answer::Unknown, _) => Ok(Some(answer)),
            (_, code) => Err(solver.failed(format!(
                "its exit status {} contradicts its answer",
                code.unwrap_or(-1)
            ))),
        }
    }

    /// Waits for the program to exit; `None` as soon as the stop is
    /// raised. A program whose `outputs` together pass what any answer to
    /// this formula takes ([`output_limit`]) is refused before it fills
    /// the disk.
    fn wait(
        &self,
        child: &mut Child,
        outputs: &[&Path],
    ) -> Result<Option<std::process::ExitStatus>, SatError> {
        let limit = output_limit(self.intake.count());
        loop {
            if let Some(status) = child
                .try_wait()
                .map_err(|e| self.solver.failed(format!("waiting for it: {e}")))?
            {
                return Ok(Some(status));
            }
            if self.intake.is_stopped() {
                return Ok(None);
            }
            let printed: u64 = outputs
                .iter()
                .filter_map(|path| std::fs::metadata(path).ok())
                .map(|meta| meta.len())
                .sum();
            if printed > limit {
                return Err(self.solver.failed(format!(
                    "printed more than {} MiB, more than any answer to this formula's {} variables takes, and was ended",
                    limit >> 20,
                    self.intake.count()
                )));
            }
            std::thread::sleep(POLL);
        }
    }
}

/// The most bytes a solver program may print for a formula of `vars`
/// variables, its answer and its messages together: a model as `v` lines
/// takes at most the digits of `vars`, a sign and a space a literal; four
/// times that, and 64 MiB for comments and statistics, which no solver's
/// output comes near, quiet or verbose.
fn output_limit(vars: usize) -> u64 {
    let per_literal = vars.to_string().len() as u64 + 2;
    (vars as u64)
        .saturating_mul(per_literal)
        .saturating_mul(4)
        .saturating_add(64 << 20)
}

/// The last non-empty line of a file, read from its last 4 KiB only, so a
/// solver that writes gigabytes of errors costs no memory.
fn last_line_of(path: &Path) -> String {
    use std::io::{Read, Seek, SeekFrom};
    const TAIL: u64 = 4096;
    let Ok(mut file) = File::open(path) else {
        return String::new();
    };
    let length = file.metadata().map_or(0, |meta| meta.len());
    if file
        .seek(SeekFrom::Start(length.saturating_sub(TAIL)))
        .is_err()
    {
        return String::new();
    }
    let mut tail = Vec::new();
    let _ = file.take(TAIL).read_to_end(&mut tail);
    let text = String::from_utf8_lossy(&tail);
    let line = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    crate::runtime::input::shown(line.trim())
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
