//! Running an external SAT solver program on the emitted CNF.

use std::fs::File;
use std::io::BufReader;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use super::on_worker;
use super::session::{record_subtour_loop, SubtourLoop};
use crate::cleanup::{kill_process_group, ProcessGroup, TempPath};

use super::Outcome;
use crate::cnf::dimacs::{read_answer, Answer};
use crate::cnf::Lit;
use crate::cnf_file::write_cnf_with_cuts;
use crate::decode::{tour_from_model, tour_from_squares};
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

    /// Writes the encoding's CNF to a private temporary directory, runs
    /// the solver on it in a process group of its own, and decodes and
    /// verifies its answer.
    ///
    /// `timeout` covers everything, writing the CNF included. Whatever
    /// happens (an answer, an error, the time limit, a signal to this
    /// process), the solver's whole process group is killed and the
    /// temporary directory removed.
    pub fn solve(
        &self,
        encoding: Box<dyn Encoding>,
        timeout: Option<Duration>,
    ) -> Result<Outcome, Error> {
        let dir = tempfile::Builder::new()
            .prefix("knightsat-")
            .tempdir()
            .map_err(|e| Error::io("creating a temporary directory", e))?;
        let _registered = TempPath::register(dir.path());
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))
            .map_err(|e| Error::io("creating a temporary directory", e))?;
        let slot = Arc::new(Slot::default());
        let (solver, work_dir, work_slot) = (self.clone(), dir.path().to_path_buf(), slot.clone());
        let answer = on_worker("solver", timeout, move || {
            solver.run(&*encoding, &work_dir, &work_slot)
        });
        if answer.is_err() {
            // At the limit the solver may still run: stop its group now.
            slot.cancel();
        }
        answer
    }

    /// Runs the solver on the formula, and for an incomplete formula (lazy
    /// subtours) again on the formula with the cuts so far, until a model
    /// is a tour (or patches into one) or the formula is unsatisfiable.
    fn run(&self, encoding: &dyn Encoding, dir: &Path, slot: &Slot) -> Result<Outcome, Error> {
        let mut cuts = Vec::new();
        let mut done = SubtourLoop::default();
        loop {
            let round = self.run_round(encoding, &cuts, dir, slot)?;
            done.rounds += 1;
            record_subtour_loop(done);
            match round {
                Round::Answer(outcome) => return Ok(outcome),
                Round::Subtours(model, new) => {
                    if let Some(squares) = encoding.patch(&model) {
                        done.patched += 1;
                        record_subtour_loop(done);
                        return tour_from_squares(encoding, squares)
                            .map(Outcome::Tour)
                            .map_err(|e| self.failed(format!("its patched model is wrong: {e}")));
                    }
                    done.cuts += new.len() as u64;
                    cuts.extend(new);
                }
            }
        }
    }

    /// Writes the CNF (with `cuts`) into `dir`, runs the solver and reads
    /// its answer.
    fn run_round(
        &self,
        encoding: &dyn Encoding,
        cuts: &[Vec<Lit>],
        dir: &Path,
        slot: &Slot,
    ) -> Result<Round, Error> {
        let cnf = dir.join("tour.cnf");
        let result = dir.join("result.txt");
        let stdout = dir.join("stdout.txt");
        let stderr = dir.join("stderr.txt");
        let create = |path: &PathBuf| {
            File::create(path).map_err(|e| Error::io(format!("creating {}", path.display()), e))
        };
        // A complete formula never gets cuts: `cuts` is empty then.
        let stats = write_cnf_with_cuts(encoding, cuts, create(&cnf)?)?;
        let mut command = self.command(&cnf, &result);
        command
            .stdin(Stdio::null())
            .stdout(create(&stdout)?)
            .stderr(create(&stderr)?)
            .process_group(0);
        let (mut child, group) = {
            let mut state = slot.lock();
            if state.cancelled {
                return Err(disconnected());
            }
            let child = command.spawn().map_err(|e| Error::SolverMissing {
                program: self.program.clone(),
                reason: match e.kind() {
                    std::io::ErrorKind::NotFound => {
                        "not found (install it or give its path)".to_string()
                    }
                    _ => e.to_string(),
                },
            })?;
            state.group = Some(child.id());
            let group = ProcessGroup::register(child.id());
            (child, group)
        };
        let status = child.wait();
        slot.reaped();
        let status = status.map_err(|e| self.failed(format!("waiting for it: {e}")))?;
        // Whatever the solver started and left running goes with it.
        drop(group);
        let code = status.code();
        if !matches!(code, Some(0 | 10 | 20)) {
            let last_line = last_line_of(&stderr);
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
        let answer = read_answer(reader, stats.vars)
            .map_err(|e| self.failed(format!("printed nothing usable: {e}")))?;
        match (answer, code) {
            (Answer::Unsat, Some(0 | 20)) => Ok(Round::Answer(Outcome::NoTour)),
            (Answer::Unknown, _) => Err(Error::NoAnswer),
            (Answer::Sat(model), Some(0 | 10)) => {
                let model = Model::new(model);
                if !encoding.is_complete() {
                    let cuts = encoding
                        .subtour_cuts(&model)
                        .map_err(|e| self.failed(format!("its model is wrong: {e}")))?;
                    if !cuts.is_empty() {
                        return Ok(Round::Subtours(model, cuts));
                    }
                }
                let tour = tour_from_model(encoding, &model, Some(stats.vars))
                    .map_err(|e| self.failed(format!("its model is wrong: {e}")))?;
                Ok(Round::Answer(Outcome::Tour(tour)))
            }
            (_, code) => Err(self.failed(format!(
                "its exit status {} contradicts its answer",
                code.unwrap_or(-1)
            ))),
        }
    }
}

/// What one run of the solver gave.
enum Round {
    /// A tour, or that there is none.
    Answer(Outcome),
    /// A model whose moves form subtours, and the cuts that forbid them.
    Subtours(Model, Vec<Vec<Lit>>),
}

/// The solver process, as far as the waiting thread knows it.
#[derive(Debug, Default)]
struct ChildState {
    /// The solver's process group, while it runs.
    group: Option<u32>,
    /// Whether the caller gave up: no solver may start any more.
    cancelled: bool,
}

/// The solver process shared by the caller and the thread that waits for it.
#[derive(Debug, Default)]
struct Slot {
    state: Mutex<ChildState>,
    reaped: Condvar,
}

impl Slot {
    fn lock(&self) -> std::sync::MutexGuard<'_, ChildState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The waiting thread has collected the solver's exit status.
    fn reaped(&self) {
        self.lock().group = None;
        self.reaped.notify_all();
    }

    /// Gives up: keeps a solver from starting, kills the running one's
    /// group, and waits (briefly) until its exit is collected, so that no
    /// zombie outlives this process.
    fn cancel(&self) {
        let mut state = self.lock();
        state.cancelled = true;
        if let Some(group) = state.group {
            kill_process_group(group);
            let (state, _) = self
                .reaped
                .wait_timeout_while(state, Duration::from_secs(2), |state| state.group.is_some())
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            drop(state);
        }
    }
}

fn disconnected() -> Error {
    Error::Solver("the solver thread stopped without an answer".into())
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
    crate::input::shown(line.trim())
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
