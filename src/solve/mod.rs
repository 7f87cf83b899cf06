//! Finding tours: varisat in-process, or an external solver program on the
//! emitted CNF. Either way the model is decoded and verified. [`Method`]
//! chooses between SAT and the searches without it ([`crate::search`]).

pub mod external;
pub mod session;
pub mod worker;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use crate::cubes::{automatic_depth, resolve_jobs};
use crate::encoding::EncodingConfig;
use crate::error::{Error, Unsupported};
use crate::problem::Problem;
use crate::search::{self, Warnsdorff};
use crate::tour::Tour;

pub use external::{ExternalSolver, SolverKind};
pub use session::{
    check_budget_for, cubes_within_budget, last_subtour_loop, memory_budget_mib,
    set_memory_budget_mib, Session, SubtourLoop, DEFAULT_MEMORY_BUDGET_MIB,
};
pub use worker::on_worker;

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A tour, decoded and verified.
    Tour(Tour),
    /// The formula is unsatisfiable: no tour meets the problem.
    NoTour,
}

/// Which solver to use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// varisat, in this process.
    Varisat,
    /// A solver program run on a temporary CNF file.
    External(ExternalSolver),
}

impl Backend {
    /// `varisat` for the in-process solver; otherwise a known solver's name
    /// (`kissat`, `cadical`, `minisat`, `picosat`) or a program's path, with
    /// extra arguments for it (varisat takes none).
    pub fn from_name(name: &str, extra_args: Vec<String>) -> Result<Backend, Error> {
        if name != "varisat" {
            return Ok(Backend::External(ExternalSolver::new(name, extra_args)));
        }
        if !extra_args.is_empty() {
            return Err(Error::Unsupported(Unsupported::ArgumentsForVarisat));
        }
        Ok(Backend::Varisat)
    }

    /// Checks that this backend can write a proof of impossibility
    /// (`proof`) or enumerate every tour (`all`): only the in-process
    /// solver does either.
    pub fn check_supports(&self, proof: bool, all: bool) -> Result<(), Error> {
        let external = matches!(self, Backend::External(_));
        let refused = match (proof, all) {
            (true, _) if external => Some(Unsupported::ProofWithExternalSolver),
            (_, true) if external => Some(Unsupported::AllWithExternalSolver),
            _ => None,
        };
        refused.map_or(Ok(()), |what| Err(Error::Unsupported(what)))
    }
}

/// How to look for tours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Method {
    /// The SAT encoding, solved by a [`Backend`]: complete (a tour, or a
    /// proof that there is none), and the only method with DRAT proofs and
    /// external solvers.
    #[default]
    Sat,
    /// Warnsdorff's greedy rule ([`search::warnsdorff`]): linear time, any
    /// board size, but it may give up ([`Error::GaveUp`]); one tour, no clues.
    Warnsdorff,
    /// Backtracking in Warnsdorff's order ([`search::backtrack`]): complete,
    /// clues included, and it counts.
    Backtrack,
}

impl Method {
    /// Every method.
    pub const ALL: [Method; 3] = [Method::Sat, Method::Warnsdorff, Method::Backtrack];

    /// The method's name: `sat`, `warnsdorff`, `backtrack`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Sat => "sat",
            Method::Warnsdorff => "warnsdorff",
            Method::Backtrack => "backtrack",
        }
    }

    /// Whether the method always answers (a tour, or that there is none),
    /// given time: SAT and backtracking do; Warnsdorff's rule may give up.
    pub fn is_complete(self) -> bool {
        self != Method::Warnsdorff
    }

    /// Checks that this method can serve `request` for `problem`, before
    /// any work starts: a typed [`Error::Unsupported`] names what it cannot do.
    pub fn check_supports(self, problem: &Problem, request: &Request) -> Result<(), Error> {
        let refuse = |what| Err(Error::Unsupported(what));
        if self != Method::Warnsdorff && request.seed.is_some() {
            return refuse(Unsupported::SeedWithoutWarnsdorff(self.name()));
        }
        if self == Method::Sat {
            if request.proof && !request.config.is_complete() {
                return refuse(Unsupported::ProofWithLazySubtours);
            }
            return request
                .backend
                .check_supports(request.proof, request.every_tour);
        }
        if request.proof {
            return refuse(Unsupported::ProofWithoutSat(self.name()));
        }
        if request.backend != Backend::Varisat {
            return refuse(Unsupported::SolverWithoutSat(self.name()));
        }
        if request.config != EncodingConfig::default() {
            return refuse(Unsupported::EncodingOptionsWithoutSat(self.name()));
        }
        if self == Method::Warnsdorff {
            if request.every_tour {
                return refuse(Unsupported::EveryTourByWarnsdorff);
            }
            if !problem.clues().is_empty() {
                return refuse(Unsupported::CluesByWarnsdorff);
            }
        }
        Ok(())
    }
}

/// What a command asks of a method beyond the problem; each method uses
/// what concerns it and [`Method::check_supports`] refuses the rest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The SAT encoding and its switches (SAT only).
    pub config: EncodingConfig,
    /// The SAT solver (SAT only).
    pub backend: Backend,
    /// Random tie-breaks (Warnsdorff's rule only).
    pub seed: Option<u64>,
    /// Give up after this long.
    pub timeout: Option<Duration>,
    /// A proof of impossibility is wanted (SAT only).
    pub proof: bool,
    /// Every tour is wanted, or their number (not Warnsdorff's rule).
    pub every_tour: bool,
}

impl Default for Request {
    fn default() -> Request {
        Request {
            config: EncodingConfig::default(),
            backend: Backend::Varisat,
            seed: None,
            timeout: None,
            proof: false,
            every_tour: false,
        }
    }
}

/// Finds one tour of `problem` by `method`, with what `request` gives it
/// (check it first with [`Method::check_supports`]). SAT and backtracking
/// answer [`Outcome::NoTour`] only when they have proved it; Warnsdorff's
/// rule never does, and gives up with [`Error::GaveUp`] instead.
pub fn find_tour(problem: &Problem, method: Method, request: &Request) -> Result<Outcome, Error> {
    match method {
        Method::Sat => solve(problem, &request.config, &request.backend, request.timeout),
        Method::Warnsdorff => {
            let options = Warnsdorff {
                seed: request.seed,
                ..Warnsdorff::default()
            };
            search::warnsdorff(problem, &options, request.timeout).map(Outcome::Tour)
        }
        Method::Backtrack => {
            Ok(search::backtrack(problem, request.timeout)?.map_or(Outcome::NoTour, Outcome::Tour))
        }
    }
}

/// Solves with the chosen backend, giving up after `timeout` if one is set.
pub fn solve(
    problem: &Problem,
    config: &EncodingConfig,
    backend: &Backend,
    timeout: Option<Duration>,
) -> Result<Outcome, Error> {
    match backend {
        Backend::Varisat => solve_in_process_within(problem, config, timeout),
        Backend::External(solver) => solver.solve(config.prepare(problem)?, timeout),
    }
}

/// Encodes the problem straight into varisat (the same clauses
/// [`write_cnf`](crate::cnf_file::write_cnf) writes), solves, and decodes
/// and verifies the tour.
pub fn solve_in_process(problem: &Problem, config: &EncodingConfig) -> Result<Outcome, Error> {
    let mut session = Session::new(config.prepare(problem)?)?;
    session.allow_patching();
    Ok(session.next_tour()?.map_or(Outcome::NoTour, Outcome::Tour))
}

/// [`solve_in_process`] with a time limit.
///
/// varisat 0.2 cannot be interrupted, so the search runs on a thread of its
/// own that is abandoned when time runs out: the caller gets
/// [`Error::Timeout`] at once, and the thread finishes (or ends with the
/// process) in the background.
pub fn solve_in_process_within(
    problem: &Problem,
    config: &EncodingConfig,
    timeout: Option<Duration>,
) -> Result<Outcome, Error> {
    if timeout.is_none() {
        return solve_in_process(problem, config);
    }
    let (problem, config) = (problem.clone(), config.clone());
    on_worker("varisat", timeout, move || {
        solve_in_process(&problem, &config)
    })
}

/// With no depth given, [`solve_parallel`] uses the smallest depth giving at
/// least this many cubes per thread: a few, so that a thread that draws
/// cubes without tours moves on soon, but not so many that every thread
/// re-encodes the formula often.
pub const SOLVE_CUBES_PER_JOB: usize = 4;

/// Solves in-process on `jobs` threads (0: one per core), each taking the
/// next cube (see [`crate::cubes`]) into a varisat session of its own. The
/// first tour found wins; the other threads stop when their current cube
/// is done (varisat cannot be interrupted). [`Outcome::NoTour`] only when
/// every cube is unsatisfiable, which, the cubes being exhaustive, proves
/// that no tour exists.
pub fn solve_parallel(
    problem: &Problem,
    config: &EncodingConfig,
    jobs: usize,
    depth: Option<usize>,
) -> Result<Outcome, Error> {
    let jobs = resolve_jobs(jobs);
    let depth = match depth {
        Some(depth) => depth,
        None => automatic_depth(problem, config, jobs, SOLVE_CUBES_PER_JOB)?,
    };
    let cubes = cubes_within_budget(problem, config, depth)?;
    let threads = jobs.min(cubes.len());
    check_budget_for(&*config.prepare(problem)?, threads)?;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let answer: Mutex<Option<Result<Tour, Error>>> = Mutex::new(None);
    let worker = || {
        while !stop.load(Ordering::Relaxed) {
            let Some(cube) = cubes.get(next.fetch_add(1, Ordering::Relaxed)) else {
                return;
            };
            let found = cube
                .pinned(problem)
                .and_then(|pinned| config.prepare(&pinned))
                .and_then(Session::new)
                .and_then(|mut session| session.next_tour());
            let found = match found {
                Ok(None) => continue,
                Ok(Some(tour)) => Ok(tour),
                Err(error) => Err(error),
            };
            stop.store(true, Ordering::Relaxed);
            answer
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(found);
            return;
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(worker);
        }
    });
    match answer.into_inner().unwrap_or_else(PoisonError::into_inner) {
        Some(Ok(tour)) => Ok(Outcome::Tour(tour)),
        Some(Err(error)) => Err(error),
        None => Ok(Outcome::NoTour),
    }
}
