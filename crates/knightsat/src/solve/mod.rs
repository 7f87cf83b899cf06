//! Finding tours, as a [`Method`] says: by SAT (varisat or `CaDiCaL` in
//! this process, or an external solver program on the emitted CNF; the
//! model decoded and verified), by Warnsdorff's rule or by backtracking
//! ([`crate::warnsdorff()`], [`crate::backtrack()`]), or by the default route ([`auto`]), which picks
//! among them. The frontier counter ([`Method::Frontier`],
//! [`crate::count::frontier`]) only counts: it finds no tour. The
//! feasibility gate ([`crate::refute`]) comes first unless the request turns
//! it off; a [`SolveJob`] is the one entry point for one tour.

pub mod auto;
mod job;
mod race;
pub mod session;
pub mod way_out;

use crate::error::SatError;
use std::ops::ControlFlow;
use std::time::Duration;

use crate::cubes::{automatic_depth, cubes_within, on_cubes, Cube};
use crate::encoding::{Encoding, EncodingConfig};
use crate::error::{Error, Unsupported};
use crate::gate::Refutation;
use crate::model::problem::Problem;
use crate::runtime::deadline::Deadline;
use crate::runtime::interrupt::Interrupt;
use crate::runtime::memory::{bytes_of_mib, default_memory_budget_mib};
use crate::runtime::stop::Stop;
use crate::runtime::threads::resolve_jobs;
use crate::sat::{Backend, Setup};
use crate::search::{self, warnsdorff, Warnsdorff};
use crate::tour::Tour;

pub use job::SolveJob;
pub use session::{Session, SubtourLoop};

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A tour, decoded and verified.
    Tour(Tour),
    /// The formula is unsatisfiable: no tour meets the problem.
    NoTour,
}

/// A search's result with what the search did to get it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The tour, or that there is none.
    pub outcome: Outcome,
    /// What the subtour loop of the session that answered did (SAT with
    /// lazy subtours; zeros otherwise).
    pub subtours: SubtourLoop,
    /// The route that answered, in words (for `-v`): the method, and for
    /// SAT its encoding and solver; for [`Method::Auto`] each step it took.
    pub route: String,
    /// Why there is no tour, where the feasibility gate proved it without
    /// a search.
    pub refuted: Option<Refutation>,
}

impl Solved {
    fn plain(outcome: Outcome, route: String) -> Solved {
        Solved {
            outcome,
            subtours: SubtourLoop::default(),
            route,
            refuted: None,
        }
    }

    /// No tour, as the feasibility gate proved by `refutation`.
    fn refuted(refutation: Refutation) -> Solved {
        Solved {
            route: format!("the feasibility gate: {refutation}"),
            refuted: Some(refutation),
            ..Solved::plain(Outcome::NoTour, String::new())
        }
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
    /// Warnsdorff's greedy rule ([`search::warnsdorff()`]): linear time, any
    /// board size, but it may give up ([`SearchError::GaveUp`](crate::error::SearchError::GaveUp)); one tour, no clues.
    Warnsdorff,
    /// Backtracking in Warnsdorff's order ([`search::backtrack()`]): complete,
    /// clues included, and it counts.
    Backtrack,
    /// The fastest of the others for the problem, by the rule of
    /// [`auto`] (measured by `scripts/bench-auto.sh`): complete, since
    /// every route it takes ends in a complete method.
    Auto,
    /// The frontier counter ([`crate::count::frontier`]): counts every
    /// tour without listing one, by a dynamic program over the squares
    /// whose cost grows with the board's width, not with the count. Finds
    /// no tour; no clues.
    Frontier,
}

impl Method {
    /// Every method.
    pub const ALL: [Method; 5] = [
        Method::Sat,
        Method::Warnsdorff,
        Method::Backtrack,
        Method::Auto,
        Method::Frontier,
    ];

    /// The method's name: `sat`, `warnsdorff`, `backtrack`, `auto`, `frontier`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Sat => "sat",
            Method::Warnsdorff => "warnsdorff",
            Method::Backtrack => "backtrack",
            Method::Auto => "auto",
            Method::Frontier => "frontier",
        }
    }

    /// The method that runs when this one is asked for with `request`:
    /// [`Method::Auto`] means [`Method::Sat`] when the caller named an
    /// option only SAT takes (`sat_named`: an encoding or one of its
    /// switches, a solver, a proof, cubes), even at its default value, or
    /// when `request` names the SAT route by its values (a non-default
    /// encoding or solver, or a proof), since explicit choices win over the
    /// default route; any other method stands (and refuses what it cannot
    /// do). The one rule for "auto means SAT": the jobs, the command and
    /// Python all ask it.
    #[must_use]
    pub fn chosen(self, sat_named: bool, problem: &Problem, request: &Request) -> Method {
        match self {
            Method::Auto if sat_named || auto::names_sat_route(problem, request) => Method::Sat,
            other => other,
        }
    }

    /// The route this method takes with `request`, in words, as the
    /// command's `-v` prints it and a way out names it: `SAT, successor
    /// encoding, solver cadical`, `Warnsdorff's rule`, `backtracking`, `the
    /// frontier counter`, `the default route`.
    pub fn describe(self, request: &Request) -> String {
        match self {
            Method::Sat => request.describe_sat(),
            Method::Warnsdorff => warnsdorff::NAME.into(),
            Method::Backtrack => search::BACKTRACKING.into(),
            Method::Auto => "the default route".into(),
            Method::Frontier => "the frontier counter".into(),
        }
    }

    /// Checks that this method can serve `request` for `problem`, before
    /// any work starts: a typed [`Error::Unsupported`] names what it cannot do.
    pub fn check_supports(self, problem: &Problem, request: &Request) -> Result<(), Error> {
        let refuse = |what| Err(Error::Unsupported(what));
        if self == Method::Auto {
            return auto::check_supports(problem, request);
        }
        if self != Method::Warnsdorff && request.seed.is_some() {
            return refuse(Unsupported::SeedWithoutWarnsdorff(self.name()));
        }
        if self != Method::Sat && problem.board().graph().is_some() {
            // Their pruning and tie-breaks read squares' colours and places.
            return refuse(Unsupported::NeedsBoard(self.name()));
        }
        if self == Method::Sat {
            if request.proof && !request.config.is_complete() {
                return refuse(Unsupported::ProofWithLazySubtours);
            }
            if (request.proof || request.every_tour) && request.config.restriction().is_some() {
                return refuse(Unsupported::EveryTourOrProofWithinARestriction);
            }
            request.config.check(problem)?;
            return request.check_solver_supports();
        }
        if request.proof {
            return refuse(Unsupported::ProofWithoutSat(self.name()));
        }
        if request.backend != Backend::default() {
            return refuse(Unsupported::SolverWithoutSat(self.name()));
        }
        if request.config != EncodingConfig::default() {
            return refuse(Unsupported::EncodingOptionsWithoutSat(self.name()));
        }
        if self == Method::Frontier {
            if !request.every_tour {
                return refuse(Unsupported::TourByFrontier);
            }
            if !problem.clues().is_empty() {
                return refuse(Unsupported::CluesByFrontier);
            }
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
    /// The memory the built-in solvers may use together, in MiB.
    pub memory_budget_mib: u64,
    /// Random tie-breaks (Warnsdorff's rule only).
    pub seed: Option<u64>,
    /// Give up after this long.
    pub timeout: Option<Duration>,
    /// A proof of impossibility is wanted (SAT only).
    pub proof: bool,
    /// Every tour is wanted, or their number (not Warnsdorff's rule).
    pub every_tour: bool,
    /// Keep the built-in `CaDiCaL`'s own preprocessing and inprocessing
    /// (SAT only; see [`Setup::preprocessing`](crate::sat::Setup::preprocessing)).
    pub solver_preprocessing: bool,
    /// Cut each subtour the moment the solver's moves close one, inside
    /// its search ([`Setup::watch_subtours`](crate::sat::Setup::watch_subtours)):
    /// the default route's second searcher on a graph.
    pub watch_subtours: bool,
    /// Pass the feasibility gate ([`crate::refute`]) first, which answers
    /// "no tour" at once where one of its rules proves it; `false`
    /// searches anyway, to test a route or to have a proof written.
    pub gate: bool,
    /// Stops the work from outside when raised ([`RunError::Interrupted`](crate::error::RunError::Interrupted));
    /// the default is never raised.
    pub interrupt: Interrupt,
}

impl Request {
    /// This request for `problem`: an encoding left at the default
    /// ([`EncodingConfig::default`]) becomes the problem's own default
    /// ([`auto::default_config`]: the successor encoding on a graph). The
    /// jobs ask it before anything else, so that a caller need not know it.
    #[must_use]
    pub fn for_problem(&self, problem: &Problem) -> Request {
        let mut request = self.clone();
        if request.config == EncodingConfig::default() {
            request.config = auto::default_config(problem);
        }
        request
    }
}

impl Default for Request {
    fn default() -> Request {
        Request {
            config: EncodingConfig::default(),
            backend: Backend::default(),
            memory_budget_mib: default_memory_budget_mib(),
            seed: None,
            timeout: None,
            proof: false,
            every_tour: false,
            solver_preprocessing: false,
            watch_subtours: false,
            gate: true,
            interrupt: Interrupt::default(),
        }
    }
}

impl Request {
    /// This request with the time `deadline` leaves as its time limit, for
    /// one step of a longer task; [`RunError::Timeout`] once none is left.
    pub(crate) fn with_time_left(&self, deadline: &Deadline) -> Result<Request, Error> {
        Ok(Request {
            timeout: deadline.left()?,
            ..self.clone()
        })
    }

    /// The request's time limit from now, which its interrupt also ends,
    /// for a search that checks a [`Deadline`].
    pub(crate) fn deadline(&self) -> Deadline {
        Deadline::new(self.timeout).interrupted_by(&self.interrupt)
    }

    /// Whether something may stop the work while it runs (a time limit or
    /// an armed interrupt), so that a solver must be stoppable mid-search
    /// ([`Setup::stoppable`]).
    pub(crate) fn may_stop(&self) -> bool {
        self.timeout.is_some() || self.interrupt.is_armed()
    }

    /// A request to solve by SAT with `config` and `backend`, the rest as default.
    pub fn sat(config: EncodingConfig, backend: Backend) -> Request {
        Request {
            config,
            backend,
            ..Request::default()
        }
    }

    /// Checks that this request's solver can write a proof of
    /// impossibility (`proof`) or enumerate every tour (`every_tour`): only
    /// the built-in solvers do either.
    fn check_solver_supports(&self) -> Result<(), Error> {
        let external = !self.backend.is_built_in();
        let refused = match (self.proof, self.every_tour) {
            (true, _) if external => Some(Unsupported::ProofWithExternalSolver),
            (_, true) if external => Some(Unsupported::AllWithExternalSolver),
            _ => None,
        };
        refused.map_or(Ok(()), |what| Err(Error::Unsupported(what)))
    }

    /// The SAT route in words: the encoding and the solver.
    pub fn describe_sat(&self) -> String {
        let cadical = self.backend == Backend::Cadical;
        format!(
            "SAT, {} encoding, solver {}{}{}",
            self.config.name(),
            self.backend.name(),
            if self.solver_preprocessing && cadical {
                " with its preprocessing"
            } else {
                ""
            },
            if self.watch_subtours && cadical {
                ", subtours cut during its search"
            } else {
                ""
            }
        )
    }

    /// Starts a session of this request's solver on `encoding`.
    pub fn session(&self, encoding: Box<dyn Encoding>, setup: Setup) -> Result<Session, Error> {
        let successor = matches!(self.config, EncodingConfig::Successor(_));
        Session::start(encoding, &self.backend, self.memory_budget_mib, setup)
            .map(|session| session.of_successor(successor))
    }

    /// Starts a session on the tours of `problem` that extend `cube`: the
    /// problem with the cube's squares pinned as clues, encoded as this
    /// request says.
    pub(crate) fn cube_session(
        &self,
        problem: &Problem,
        cube: &Cube,
        setup: Setup,
    ) -> Result<Session, Error> {
        self.session(self.config.prepare(&cube.pinned(problem)?)?, setup)
    }

    /// Refuses to run `threads` sessions of `problem` at once (the cube
    /// workers of `--jobs`) when together they would exceed the budget.
    pub(crate) fn check_budget_for_threads(
        &self,
        problem: &Problem,
        threads: usize,
    ) -> Result<(), Error> {
        if !self.backend.is_built_in() {
            return Err(Error::Unsupported(Unsupported::JobsWithExternalSolver));
        }
        Ok(self.backend.check_budget(
            &*self.config.prepare(problem)?,
            threads,
            self.memory_budget_mib,
        )?)
    }
}

/// One tour of `problem` by `method` (SAT and backtracking answer
/// [`Outcome::NoTour`] only when they have proved it; Warnsdorff's rule
/// never does, and gives up with
/// [`SearchError::GaveUp`](crate::error::SearchError::GaveUp) instead): a
/// [`SolveJob`] on one thread once the gate has had its say.
fn find_after_gate(problem: &Problem, method: Method, request: &Request) -> Result<Solved, Error> {
    match method {
        Method::Sat => solve(problem, request),
        Method::Warnsdorff => {
            let options = Warnsdorff {
                seed: request.seed,
                ..Warnsdorff::default()
            };
            let tour = search::warnsdorff_until(problem, &options, &request.deadline())?;
            Ok(Solved::plain(Outcome::Tour(tour), warnsdorff::NAME.into()))
        }
        Method::Backtrack => Ok(Solved::plain(
            search::backtrack_until(problem, &request.deadline())?
                .map_or(Outcome::NoTour, Outcome::Tour),
            search::BACKTRACKING.into(),
        )),
        Method::Auto => auto::find_tour(problem, request),
        Method::Frontier => Err(Error::Unsupported(Unsupported::TourByFrontier)),
    }
}

/// Solves by SAT with the request's encoding and solver, within its time
/// limit: the session is stopped at the limit, and has ended when this
/// returns.
pub(crate) fn solve(problem: &Problem, request: &Request) -> Result<Solved, Error> {
    let stop = Stop::new();
    stop.within(request.timeout, &request.interrupt, || {
        let stoppable = request.may_stop();
        solve_encoded(request.config.prepare(problem)?, request, &stop, stoppable)
    })
}

/// [`solve`] for a problem already encoded, watching `stop`; a solver that
/// pays to be stoppable is so only when asked (see [`Setup::stoppable`]).
fn solve_encoded(
    encoding: Box<dyn Encoding>,
    request: &Request,
    stop: &Stop,
    stoppable: bool,
) -> Result<Solved, Error> {
    let setup = Setup {
        stoppable,
        guesses_first: encoding.guesses_find_models(),
        preprocessing: request.solver_preprocessing,
        watch_subtours: request.watch_subtours,
        ..Setup::new(stop)
    };
    let solved = first_tour(request.session(encoding, setup)?, request.describe_sat())?;
    proved_or_restricted(solved, &request.config)
}

/// `solved`, unless it says "no tour" of a formula that keeps only some
/// tours ([`EncodingConfig::restriction`]): that proves nothing, and is
/// [`SearchError::NoneWithin`](crate::error::SearchError::NoneWithin).
fn proved_or_restricted(solved: Solved, config: &EncodingConfig) -> Result<Solved, Error> {
    match (&solved.outcome, config.restriction()) {
        (Outcome::NoTour, Some(restriction)) => {
            Err(crate::error::SearchError::NoneWithin { restriction }.into())
        }
        _ => Ok(solved),
    }
}

/// Solves by SAT with each of `requests` at once, a thread each, within
/// the first one's time limit: the first answer wins and stops the other
/// sessions (see [`race`]). A request whose formula keeps only some tours
/// ([`EncodingConfig::restriction`]) may find none; that ends nothing, and
/// the others race on. Where the machine has fewer cores than requests,
/// only the first request is solved, as [`solve`] does; where the
/// sessions together would exceed the first request's memory budget, the
/// smallest formula that keeps every tour is.
pub(crate) fn solve_racing(problem: &Problem, requests: &[Request]) -> Result<Solved, Error> {
    let Some(first) = requests.first() else {
        return Err(Error::Sat(SatError::NoAnswer));
    };
    if requests.len() == 1 || !race::cores_for(requests.len()) {
        return solve(problem, first);
    }
    let stop = Stop::new();
    stop.within(first.timeout, &first.interrupt, || {
        // Preparing and sizing the formulations walks each whole formula,
        // seconds on a graph of a million vertices: the time limit is
        // looked at after each, as no search is yet there to stop.
        let mut encodings = Vec::with_capacity(requests.len());
        for request in requests {
            encodings.push(request.config.prepare(problem)?);
            stop.check()?;
        }
        let mut together = 0;
        for (request, encoding) in requests.iter().zip(&encodings) {
            together += request.backend.estimated_memory_mib(&**encoding);
            stop.check()?;
        }
        if together > first.memory_budget_mib {
            // The race does not fit: the smallest formula that keeps every
            // tour runs alone, so that its "no tour" is an answer.
            let (request, encoding) = requests
                .iter()
                .zip(encodings)
                .filter(|(request, _)| request.config.restriction().is_none())
                .min_by_key(|(request, encoding)| request.backend.estimated_memory_mib(&**encoding))
                .ok_or(Error::Sat(SatError::NoAnswer))?;
            return solve_encoded(encoding, request, &stop, request.may_stop());
        }
        let entrants = requests.len();
        // Checked together above: each session need not walk its formula
        // for an estimate again.
        let checked: Vec<Request> = requests
            .iter()
            .map(|request| Request {
                memory_budget_mib: crate::sat::UNCHECKED_BUDGET,
                ..request.clone()
            })
            .collect();
        let racers = checked
            .iter()
            .zip(encodings)
            .map(|(request, encoding)| -> race::Racer<'_, Solved> {
                let stop = &stop;
                // The loser must stop when the winner answers.
                Box::new(move || {
                    let solved = solve_encoded(encoding, request, stop, true)?;
                    Ok(Solved {
                        route: format!(
                            "{}, {} (the first of {entrants} formulations raced)",
                            solved.route,
                            request.config.formulation()
                        ),
                        ..solved
                    })
                })
            })
            .collect();
        race::first_answer(&stop, racers)
    })
}

/// A session's first tour (patching allowed), with what its loop did.
fn first_tour(mut session: Session, route: String) -> Result<Solved, Error> {
    session.allow_patching();
    let outcome = session.next_tour()?.map_or(Outcome::NoTour, Outcome::Tour);
    Ok(Solved {
        subtours: session.subtour_loop(),
        ..Solved::plain(outcome, route)
    })
}

/// With no depth given, a search by cubes uses the smallest depth giving
/// at least this many cubes per thread: a few, so that a thread that draws
/// cubes without tours moves on soon, but not so many that every thread
/// re-encodes the formula often.
pub const SOLVE_CUBES_PER_JOB: usize = 4;

/// Solves on `jobs` threads (0: one per core), each taking the next cube
/// (see [`crate::cubes`]) into a session of its own, with the request's
/// built-in solver, within its time limit. The first tour found wins and
/// stops the other sessions. [`Outcome::NoTour`] only when every cube is
/// unsatisfiable, which, the cubes being exhaustive, proves that no tour
/// exists. A [`SolveJob`] by cubes, once the gate has had its say.
fn solve_cubes(
    problem: &Problem,
    request: &Request,
    jobs: usize,
    depth: Option<usize>,
) -> Result<Solved, Error> {
    let stop = Stop::new();
    stop.within(request.timeout, &request.interrupt, || {
        let config = &request.config;
        // A deep walk of the cubes keeps the time limit as the solvers do.
        let halt = || stop.check();
        let depth = match depth {
            Some(depth) => depth,
            None => automatic_depth(problem, config, (jobs, SOLVE_CUBES_PER_JOB), &halt)?,
        };
        let cubes = cubes_within(
            problem,
            config,
            depth,
            bytes_of_mib(request.memory_budget_mib),
            &halt,
        )?;
        request.check_budget_for_threads(problem, resolve_jobs(jobs).min(cubes.len()))?;
        let found = on_cubes(&cubes, jobs, &stop, |_, cube| {
            let session = request.cube_session(problem, cube, Setup::new(&stop))?;
            let solved = first_tour(session, format!("SAT on cubes: {}", request.describe_sat()))?;
            Ok(match solved.outcome {
                Outcome::Tour(_) => ControlFlow::Break(solved),
                Outcome::NoTour => ControlFlow::Continue(()),
            })
        })?;
        let solved = found.unwrap_or_else(|| {
            Solved::plain(
                Outcome::NoTour,
                format!("SAT on every cube: {}", request.describe_sat()),
            )
        });
        proved_or_restricted(solved, config)
    })
}
