//! The solver seam: one trait for an incremental SAT solver, and the
//! solvers behind it.
//!
//! A [`SatSolver`] takes clauses through [`ClauseSink`] (so an encoding
//! writes into a solver exactly as it writes DIMACS), solves under
//! assumptions, gives its model, and stops when its [`Stop`] is raised from
//! another thread. Three stand behind it, chosen by [`Backend`]: varisat
//! and `CaDiCaL` linked into this process ([`varisat`], [`cadical`]), and an
//! external program re-run on the clauses so far ([`external`]). The shape
//! follows rustsat's `Solve`, `SolveIncremental` and `Interrupt` traits,
//! cut down to what the tour searches use; everything above the seam (the
//! subtour loop, enumeration, cubes, proofs) is written once, in
//! [`crate::solve::Session`].

use crate::cnf::CnfError;
use crate::encoding::EncodingError;
use crate::model::unsupported::Unsupported;
use crate::runtime::{HoldsRunError, RunError};
pub mod cadical;
pub mod external;
mod proof;
pub mod varisat;

use std::fs::File;

use crate::cnf::{ClauseSink, Lit};
use crate::encoding::{CycleWatch, Encoding, Model};
use crate::runtime::stop::Stop;

pub use external::{ExternalSolver, SolverKind};

/// What one call to [`SatSolver::solve`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SatResult {
    /// The clauses (under the assumptions) have a model.
    Sat,
    /// They have none.
    Unsat,
    /// The solver was stopped ([`Stop`]) before it knew.
    Stopped,
}

/// An incremental SAT solver: clauses in through [`ClauseSink`], then
/// solve, read the model, add more clauses, solve again. A solver lives on
/// the thread that started it (varisat is not `Send`); other threads reach
/// it through its [`Stop`].
pub trait SatSolver: ClauseSink {
    /// The solver's name, for messages (`varisat`, `cadical`, a program).
    fn name(&self) -> &str;

    /// Solves the clauses added so far, with `assumptions` true for this
    /// call only. Returns [`SatResult::Stopped`] once the solver's
    /// [`Stop`] is raised, at the latest shortly after.
    fn solve(&mut self, assumptions: &[Lit]) -> Result<SatResult, SatError>;

    /// The model of the last call to [`solve`](Self::solve), which must
    /// have answered [`SatResult::Sat`].
    fn model(&mut self) -> Result<Model, SatError>;

    /// Lets `watch` take part in the search, giving the solver the cuts of
    /// every subtour the moment its moves close one; false for a solver
    /// that cannot take a watch (then the session cuts whole models only).
    fn watch_cycles(&mut self, _watch: CycleWatch) -> bool {
        false
    }

    /// What the watch given to [`watch_cycles`](Self::watch_cycles) found
    /// during the search: the subtours it cut.
    fn cycles_watched(&self) -> u64 {
        0
    }

    /// Finishes the proof the solver was started with (see [`Setup::proof`]),
    /// flushing it; nothing for a solver started without one.
    fn finish_proof(&mut self) -> Result<(), SatError> {
        Ok(())
    }
}

/// How a solver is started.
#[derive(Debug, Default)]
pub struct Setup {
    /// The flag that stops it.
    pub stop: Stop,
    /// Whether the flag may be raised while the solver searches (a time
    /// limit, another worker's answer). Where nothing will raise it, a
    /// solver that pays to be stoppable (varisat's proof into nothing costs
    /// it solving time: docs/notebook.md, "Solvers side by side") can
    /// skip that; the flag is still checked between searches.
    pub stoppable: bool,
    /// Where to write a DRAT proof of everything it derives (complete
    /// formulas solved once only: a proof of unsatisfiability).
    pub proof: Option<File>,
    /// What the solver will be asked to do, for the settings that suit it.
    pub workload: Workload,
    /// Whether the solver should try its cheap guesses at a whole
    /// assignment before it searches (`CaDiCaL`'s "lucky" phases; varisat
    /// has none). They find a model of an open tour's successor formula
    /// without a single conflict, far sooner than a search, and fail on
    /// closed and time-indexed formulas, where on large boards they take
    /// longer than the search after them (docs/notebook.md, "Solvers side
    /// by side").
    pub guesses_first: bool,
    /// Whether the solver keeps its own preprocessing and inprocessing
    /// (`CaDiCaL`'s default configuration) rather than the "plain" one
    /// knightsat measured best on boards; varisat has no such choice.
    pub preprocessing: bool,
    /// Whether the session lets a watch of the subtours take part in the
    /// solver's search ([`SatSolver::watch_cycles`]), for an incomplete
    /// successor formula on a solver that can take one (`CaDiCaL`).
    pub watch_subtours: bool,
}

/// What a solver is started for: each solver picks its settings from it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Workload {
    /// One search, or a few (a subtour loop).
    #[default]
    Search,
    /// Solution after solution of one formula, a blocking clause after each
    /// (`count`, `solve --all`, a puzzle's uniqueness).
    Enumeration,
    /// The same, for the small formula of one cube (`count --jobs`).
    CubeEnumeration,
}

impl Setup {
    /// A plain start with `stop`, which may be raised at any time.
    pub(crate) fn new(stop: &Stop) -> Setup {
        Setup {
            stop: stop.clone(),
            stoppable: true,
            ..Setup::default()
        }
    }
}

/// Which SAT solver to use.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// varisat, in this process.
    #[default]
    Varisat,
    /// `CaDiCaL`, linked into this process.
    Cadical,
    /// A solver program run on a temporary CNF file, once per solve.
    External(ExternalSolver),
}

impl Backend {
    /// `varisat` and `cadical` name the built-in solvers; any other name is
    /// a solver program: a path if it holds a `/`, else found on PATH
    /// (`kissat`, `minisat`, `picosat`, …), called with `extra_args`
    /// (built-in solvers take none).
    pub fn from_name(name: &str, extra_args: Vec<String>) -> Result<Backend, SatError> {
        let (backend, name) = match name {
            "varisat" => (Backend::Varisat, "varisat"),
            "cadical" => (Backend::Cadical, "cadical"),
            program => return Ok(Backend::External(ExternalSolver::new(program, extra_args))),
        };
        if !extra_args.is_empty() {
            return Err(SatError::Unsupported(Unsupported::ArgumentsForBuiltIn(
                name,
            )));
        }
        Ok(backend)
    }

    /// The name `--solver` takes for it.
    pub fn name(&self) -> &str {
        match self {
            Backend::Varisat => "varisat",
            Backend::Cadical => "cadical",
            Backend::External(solver) => &solver.program,
        }
    }

    /// Whether the solver runs in this process (and so is bound by the
    /// memory budget, and can enumerate and prove).
    pub fn is_built_in(&self) -> bool {
        !matches!(self, Backend::External(_))
    }

    /// Starts a solver with no clauses.
    pub(crate) fn start(&self, setup: Setup) -> Result<Box<dyn SatSolver>, SatError> {
        match self {
            Backend::Varisat => Ok(Box::new(varisat::Varisat::start(setup)?)),
            Backend::Cadical => Ok(Box::new(cadical::Cadical::start(setup)?)),
            Backend::External(solver) => Ok(Box::new(solver.start(setup)?)),
        }
    }

    /// About how many bytes the solver holds per literal of the formula
    /// (0 for a program, which is not in this process).
    fn bytes_per_literal(&self) -> u64 {
        match self {
            Backend::Varisat => varisat::BYTES_PER_LITERAL,
            Backend::Cadical => cadical::BYTES_PER_LITERAL,
            Backend::External(_) => 0,
        }
    }

    /// The memory the solver would need for `encoding`, in MiB.
    pub(crate) fn estimated_memory_mib(&self, encoding: &dyn Encoding) -> u64 {
        (encoding.estimated_literals() * self.bytes_per_literal()).div_ceil(1 << 20)
    }

    /// Refuses to run `sessions` solvers of `encoding` at once (one per
    /// thread of `--jobs`) when together they would need more than
    /// `budget_mib`: the budget bounds the process, not each solver.
    /// A budget of `u64::MAX` is none ([`UNCHECKED_BUDGET`]), and the
    /// formula is not walked for an estimate.
    pub(crate) fn check_budget(
        &self,
        encoding: &dyn Encoding,
        sessions: usize,
        budget_mib: u64,
    ) -> Result<(), SatError> {
        if budget_mib == UNCHECKED_BUDGET {
            return Ok(());
        }
        let estimate_mib = self.estimated_memory_mib(encoding) * sessions as u64;
        if estimate_mib > budget_mib {
            return Err(SatError::OverMemoryBudget {
                board: encoding.problem().board().named(),
                solver: self.name().to_string(),
                estimate_mib,
                budget_mib,
                sessions,
            });
        }
        Ok(())
    }
}

pub use crate::runtime::memory::DEFAULT_MEMORY_BUDGET_MIB;

/// The memory budget of a session whose memory its caller has already
/// checked (a race's sessions, checked together before they start): no
/// estimate is made again, which walks the whole formula.
pub(crate) const UNCHECKED_BUDGET: u64 = u64::MAX;

/// Which variables a solver has numbered, and whether it should still take
/// clauses: once stopped, it drops them, so that an encoding being written
/// into it finishes fast and the search that follows stops at once.
#[derive(Debug, Default)]
pub(crate) struct Intake {
    vars: crate::cnf::VarCounter,
    stop: Stop,
}

impl Intake {
    pub(crate) fn new(stop: Stop) -> Intake {
        Intake {
            vars: crate::cnf::VarCounter::default(),
            stop,
        }
    }

    /// Whether clauses should still go in.
    pub(crate) fn open(&self) -> bool {
        !self.stop.is_stopped()
    }

    /// Whether the solver's stop has been raised.
    pub(crate) fn is_stopped(&self) -> bool {
        self.stop.is_stopped()
    }

    pub(crate) fn fresh(&mut self) -> crate::cnf::Var {
        self.vars.fresh()
    }

    pub(crate) fn reserve(&mut self, count: usize) {
        self.vars.reserve(count);
    }

    pub(crate) fn count(&self) -> usize {
        self.vars.count()
    }
}

/// The part of [`ClauseSink`] every solver writes the same way: variables
/// counted by its [`Intake`].
macro_rules! sink_vars_by_intake {
    () => {
        fn new_var(&mut self) -> crate::cnf::Var {
            self.intake.fresh()
        }

        fn reserve_vars(&mut self, count: usize) {
            self.intake.reserve(count);
        }

        fn var_count(&self) -> usize {
            self.intake.count()
        }

        fn is_closed(&self) -> bool {
            !self.intake.open()
        }
    };
}
pub(crate) use sink_vars_by_intake;

/// Why a SAT solver gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum SatError {
    /// The in-process solver failed.
    #[error("solver failed: {0}")]
    Solver(String),
    /// An external solver program that cannot be started.
    #[error("cannot run solver '{program}': {reason}")]
    SolverMissing {
        /// The program as given.
        program: String,
        /// Why it could not be started.
        reason: String,
    },
    /// An external solver that crashed, failed or printed nothing usable.
    #[error("solver '{program}' failed: {detail}")]
    SolverFailed {
        /// The program as given.
        program: String,
        /// What went wrong.
        detail: String,
    },
    /// The solver gave up without an answer (`s UNKNOWN`).
    #[error("the solver gave no answer (UNKNOWN)")]
    NoAnswer,
    /// A formula too big to solve in this process within the memory budget.
    #[error("solving {board} in-process with {solver} would need about {estimate_mib} MiB, over the budget of {budget_mib} MiB")]
    OverMemoryBudget {
        /// The board or graph, named (`Board::named`).
        board: String,
        /// The built-in solver.
        solver: String,
        /// The estimate, for every session together.
        estimate_mib: u64,
        /// The budget.
        budget_mib: u64,
        /// The sessions that would run at once (threads solving cubes),
        /// each of `estimate_mib / sessions`.
        sessions: usize,
    },
    /// A request that cannot be served.
    #[error("{0}")]
    Unsupported(#[from] Unsupported),
    /// The encoding's options, or decoding a model.
    #[error(transparent)]
    Encoding(#[from] EncodingError),
    /// Reading DIMACS text, a model or a solver's output.
    #[error(transparent)]
    Cnf(#[from] CnfError),
    /// A time limit, an interrupt, or reading and writing files.
    #[error(transparent)]
    Run(#[from] RunError),
}

impl SatError {
    /// For a refusal of several sessions at once over the memory budget
    /// ([`SatError::OverMemoryBudget`]), the most threads whose sessions
    /// fit together, where one fits at all: the `--jobs` that works.
    pub fn threads_that_fit(&self) -> Option<usize> {
        let SatError::OverMemoryBudget {
            estimate_mib,
            budget_mib,
            sessions,
            ..
        } = self
        else {
            return None;
        };
        let each = estimate_mib / (*sessions).max(1) as u64;
        (*sessions > 1 && each <= *budget_mib).then(|| {
            usize::try_from(budget_mib / each.max(1))
                .unwrap_or(usize::MAX)
                .max(1)
        })
    }
}

impl HoldsRunError for SatError {
    fn as_run(&self) -> Option<&RunError> {
        match self {
            SatError::Run(error) => Some(error),
            _ => None,
        }
    }
}
