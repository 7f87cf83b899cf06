//! The one job of finding a tour: a [`SolveJob`] says what to look for and
//! how, and its [`run`](SolveJob::run) passes the feasibility gate, checks
//! what is asked, and searches by one route, or by SAT cube by cube.

use super::{find_after_gate, solve_cubes, Method, Request, Solved};
use crate::error::{Error, Unsupported};
use crate::gate::refute_until;
use crate::model::problem::Problem;
use crate::runtime::deadline::Deadline;

/// A search for one tour of a problem, or a proof that there is none.
/// Build one with [`SolveJob::new`] and struct update syntax, then
/// [`run`](SolveJob::run) it; the command's `solve` and Python's `solve`
/// both do, so that each rule below is decided here once:
///
/// - the method that runs: [`Method::chosen`] (the default route, unless
///   the caller named an option only SAT takes or the request names SAT);
/// - what is refused before the search: the encoding's limits for SAT
///   (`EncodingConfig::check`), what the
///   method cannot do ([`Method::check_supports`]), cubes without SAT;
/// - the feasibility gate first, within the time limit, which the search
///   then shares (a timeout names the whole limit);
/// - one search by the method (the default route's steps, `auto`, each a
///   job of its own with the gate off), or cubes on threads when `jobs` is
///   not 1 or a `depth` is given: the library's one gate-then-search.
pub struct SolveJob<'a> {
    /// The problem whose tour is sought.
    pub problem: &'a Problem,
    /// The method asked for; see [`SolveJob::chosen_method`].
    pub method: Method,
    /// Whether the caller named an option only SAT takes (an encoding or
    /// one of its switches, a solver, a proof, cubes), even at its default
    /// value: [`Method::Auto`] then searches by SAT.
    pub sat_named: bool,
    /// The encoding, solver, memory budget, seed, time limit, interrupt,
    /// and whether to pass the feasibility gate first (`request.gate`).
    pub request: Request,
    /// Threads solving cubes (0: one per core); 1, the default, searches
    /// once. Cubes are solved by SAT only.
    pub jobs: usize,
    /// Cube depth in moves; given, the search goes cube by cube.
    pub depth: Option<usize>,
    /// Hears the method that searches, once the gate has let the problem
    /// on and the request has been checked, before the search starts.
    pub on_start: Option<&'a (dyn Fn(Method) + Sync)>,
}

impl<'a> SolveJob<'a> {
    /// A search for one tour of `problem` by the default route, with the
    /// default request (the gate first), on one thread, nothing heard.
    pub fn new(problem: &'a Problem) -> SolveJob<'a> {
        SolveJob {
            problem,
            method: Method::Auto,
            sat_named: false,
            request: Request::default(),
            jobs: 1,
            depth: None,
            on_start: None,
        }
    }

    /// The method that searches: [`Method::chosen`] of the one asked for.
    pub fn chosen_method(&self) -> Method {
        self.method
            .chosen(self.sat_named, self.problem, &self.request)
    }

    /// Whether the search goes cube by cube.
    pub(super) fn by_cubes(&self) -> bool {
        self.jobs != 1 || self.depth.is_some()
    }

    /// Refuses what the job cannot do, before any search: a formula the
    /// encoding cannot hold (SAT), what the method cannot do, cubes
    /// without SAT. Returns the method that searches.
    pub fn check(&self) -> Result<Method, Error> {
        let method = self.chosen_method();
        let request = self.request.for_problem(self.problem);
        if method == Method::Sat {
            request.config.check(self.problem)?;
        }
        method.check_supports(self.problem, &request)?;
        if self.by_cubes() && method != Method::Sat {
            return Err(Error::Unsupported(Unsupported::CubesWithoutSat(
                method.name(),
            )));
        }
        Ok(method)
    }

    /// Searches. The feasibility gate comes first (unless `request.gate`
    /// is off), within the time limit: where it proves there is no tour,
    /// the answer says so (`Solved::refuted`). Then what the job cannot
    /// do is refused ([`SolveJob::check`]), and the search gets what is
    /// left of the limit; a timeout names the whole limit.
    pub fn run(&self) -> Result<Solved, Error> {
        let deadline = Deadline::new(self.request.timeout);
        if self.request.gate {
            let gate_deadline = deadline.clone().interrupted_by(&self.request.interrupt);
            if let Some(refutation) = refute_until(self.problem, &gate_deadline) {
                return Ok(Solved::refuted(refutation));
            }
        }
        let job = SolveJob {
            request: Request {
                timeout: deadline.limit_left(),
                ..self.request.for_problem(self.problem)
            },
            on_start: None,
            ..*self
        };
        let searched = job.check().and_then(|method| {
            if let Some(on_start) = self.on_start {
                on_start(method);
            }
            if job.by_cubes() {
                solve_cubes(self.problem, &job.request, self.jobs, self.depth)
            } else {
                find_after_gate(self.problem, method, &job.request)
            }
        });
        searched.map_err(|error| deadline.with_whole_limit(error))
    }
}
