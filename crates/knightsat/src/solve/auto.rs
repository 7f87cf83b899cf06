//! [`Method::Auto`], the default: the route that answers a problem
//! fastest, by a rule measured with `scripts/bench-auto.sh` (the figures
//! are in `docs/notebook.md`, "The default route"):
//!
//! | problem | one tour (`solve`) | every tour (`count`, `solve --all`) |
//! | --- | --- | --- |
//! | no clues | Warnsdorff's rule; if it gives up, SAT: successor encoding, built-in `CaDiCaL` | backtracking; for a plain `count` (the number only), the frontier counter where it is the faster (`count::route`'s `frontier_is_fastest`: count policy lives in the count room) |
//! | clues | SAT: time-indexed encoding, [`CLUED_SOLVER`]; from [`RACE_FROM_SQUARES`] up, bimander and pairwise at-most-ones raced; from [`CORRIDOR_FROM_SQUARES`] up, the whole formula (pairwise) raced against a corridor around the clues ([`CLUED_CORRIDOR_SLACK`], bimander), whose "none" proves nothing and leaves the whole formula to answer | SAT: time-indexed encoding, [`CLUED_SOLVER`] |
//!
//! Warnsdorff's rule tours the largest boards in linear time and never
//! says "no tour", so a complete method always follows it; clues are where
//! SAT beats search by orders of magnitude, and counting plain boards is
//! where backtracking and the frontier counter do.
//!
//! A request that names its SAT route (an encoding or solver other than
//! the defaults, or a proof) is solved by SAT exactly as it asks: explicit
//! choices win, so that an encoding can be regression-tested.

use crate::error::{RunError, SatError, SearchError};
use crate::runtime::deadline::Deadline;

use super::{solve_racing, Method, Request, SolveJob, Solved};
use crate::encoding::amo::Amo;
use crate::encoding::{EncodingConfig, Subtours, SuccessorConfig, TimeIndexedConfig};
use crate::error::Error;
use crate::model::problem::Problem;
use crate::sat::Backend;

/// The solver for clued problems (the time-indexed encoding).
pub const CLUED_SOLVER: Backend = Backend::Varisat;

/// From this many squares (12x12) up, a clued problem's one tour is
/// searched by a race of two formulations (see `solve::race`): first
/// bimander against pairwise at-most-ones, which on clue sets from 16x16
/// to 30x30 took less time than bimander alone, in all and in geometric
/// mean, and little more than the faster formulation alone; on 12x12
/// puzzles it was as fast as bimander alone or faster, on 10x10 ones the
/// same or a little slower (docs/notebook.md, "The race on clued
/// boards"); from [`CORRIDOR_FROM_SQUARES`] up, the whole formula against
/// a corridor. Below it a search is short, and a single one gives the
/// same tour on every run.
pub const RACE_FROM_SQUARES: usize = 144;

/// From this many squares (20x20) up, the race on a clued board is the
/// whole formula (pairwise at-most-ones) against a corridor around the
/// clues ([`CLUED_CORRIDOR_SLACK`], bimander at-most-ones), rather than
/// the whole formula's two at-most-ones: on clue sets from random tours,
/// in one run alternating with the race before, the median times were
/// 0.23 to 0.99 of the old race's on 30x30, 0.76 to 1.07 on 24x24 and
/// 0.77 to 1.02 on 20x20, but 1.47 and 1.80 on two 16x16 sets (0.09 s
/// becoming 0.16 s) and 1.25 on a 12x12 puzzle: on small boards the
/// corridor cuts little, and the race loses the whole bimander formula,
/// the faster there (docs/notebook.md, "A corridor around the clues").
pub const CORRIDOR_FROM_SQUARES: usize = 400;

/// The slack of the corridor around the clues (`TimeIndexedConfig::corridor`)
/// the default route races against the whole formula on large clued
/// boards ([`CORRIDOR_FROM_SQUARES`]). Detours have the parity of the
/// moves between the clues, so the slack is even: at 2 a 30x30 board had
/// no tour in the corridor and another none within 20 s; 6 took longer
/// than 4 on three of five 30x30 boards.
pub const CLUED_CORRIDOR_SLACK: u32 = 4;

/// The solver for the successor encoding's lazy loop, when Warnsdorff's
/// rule gives up.
pub const SUCCESSOR_SOLVER: Backend = Backend::Cadical;

/// Whether `request` names its SAT route for `problem`: an encoding other
/// than the problem's default ([`default_config`]), a solver other than the
/// default, or a proof. [`Method::chosen`] alone asks.
pub(crate) fn names_sat_route(problem: &Problem, request: &Request) -> bool {
    (request.config != default_config(problem) && request.config != EncodingConfig::default())
        || request.backend != Backend::default()
        || request.proof
}

/// The steps the default route takes to find one tour of `problem` (a
/// plain request), in words joined by "then": `Warnsdorff's rule, then
/// SAT, successor encoding, solver cadical` on a plain board. What a way
/// out of a slower route names.
pub fn one_tour_route_in_words(problem: &Problem) -> String {
    route(problem, &Request::default())
        .iter()
        .map(|step| step.method.describe(&step.request))
        .collect::<Vec<_>>()
        .join(", then ")
}

/// What [`Method::Auto`] tries for `problem` and `request`, step by step:
/// each step's method and, for SAT, its encoding's name (`time-indexed`,
/// `successor`), so that a way out names only what the route did not try.
pub fn route_steps(problem: &Problem, request: &Request) -> Vec<(Method, Option<&'static str>)> {
    route(problem, request)
        .iter()
        .map(|step| {
            let encoding = (step.method == Method::Sat).then(|| step.request.config.name());
            (step.method, encoding)
        })
        .collect()
}

/// One step of a route: a method and what it is given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The method.
    pub method: Method,
    /// Its request (the caller's, with the encoding and solver the rule picks).
    pub request: Request,
    /// Other formulations of the same SAT step, raced against it on cores
    /// of their own (`solve_racing`); empty for a single search.
    pub rivals: Vec<Request>,
}

/// The steps [`Method::Auto`] takes for `problem` and `request`: each is
/// tried in turn while the one before gives up ([`SearchError::GaveUp`]); the
/// last is complete. A request that names the SAT route never gets here:
/// [`Method::chosen`], the one rule for "auto means SAT", has made it SAT.
pub(crate) fn route(problem: &Problem, request: &Request) -> Vec<Step> {
    if problem.board().graph().is_some() {
        return vec![graph_step(request)];
    }
    if !problem.clues().is_empty() {
        return vec![clued_step(problem, request)];
    }
    if request.every_tour {
        return vec![Step {
            method: Method::Backtrack,
            request: Request {
                seed: None,
                ..request.clone()
            },
            rivals: Vec::new(),
        }];
    }
    vec![
        Step {
            method: Method::Warnsdorff,
            request: request.clone(),
            rivals: Vec::new(),
        },
        sat_step(
            request,
            EncodingConfig::from(SuccessorConfig::default()),
            SUCCESSOR_SOLVER,
        ),
    ]
}

/// A step by SAT: `request` with `config` on `backend`, no seed.
fn sat_step(request: &Request, config: EncodingConfig, backend: Backend) -> Step {
    Step {
        method: Method::Sat,
        request: Request {
            config,
            backend,
            seed: None,
            ..request.clone()
        },
        rivals: Vec::new(),
    }
}

/// The one step on a graph from a file. A graph has no places for
/// Warnsdorff's tie-breaks, backtracking's pruning or the time-indexed
/// encoding's: the successor encoding, whose lazy cuts (and clues, by
/// position) need none, on the solver named or the successor encoding's.
fn graph_step(request: &Request) -> Step {
    let config = if request.config == EncodingConfig::default() {
        EncodingConfig::from(SuccessorConfig::default())
    } else {
        request.config.clone()
    };
    let named = request.backend != Backend::default();
    let backend = if named {
        request.backend.clone()
    } else {
        SUCCESSOR_SOLVER
    };
    let mut step = sat_step(request, config, backend);
    if !named && !request.every_tour {
        // On FHCP graphs the search's time is heavy-tailed and which
        // setting wins changes from graph to graph: CaDiCaL plain raced
        // against CaDiCaL with the subtours cut inside its search, on
        // cores of their own. Against the race before (plain against
        // CaDiCaL's own preprocessing), every tenth graph, both at once:
        // 69 of 100 each, and on the 51 graphs from 180 on both solved,
        // median 4.6 s against 7.6 s, faster on 37 (docs/notebook.md,
        // "Subtours cut inside the search").
        let mut rival = step.request.clone();
        rival.watch_subtours = true;
        step.rivals = vec![rival];
    }
    step
}

/// The one step on a board with clues: the time-indexed encoding on
/// [`CLUED_SOLVER`], from [`RACE_FROM_SQUARES`] up bimander raced against
/// pairwise, and from [`CORRIDOR_FROM_SQUARES`] up the whole formula
/// (pairwise) raced against a corridor around the clues.
fn clued_step(problem: &Problem, request: &Request) -> Step {
    let sat = |config: EncodingConfig| sat_step(request, config, CLUED_SOLVER);
    if request.every_tour || problem.board().squares() < RACE_FROM_SQUARES {
        return sat(EncodingConfig::default());
    }
    let pairwise = TimeIndexedConfig {
        amo: Amo::Pairwise,
        ..TimeIndexedConfig::default()
    };
    // A corridor runs between pairs of clues: with one clue it would
    // be the whole formula again.
    if problem.board().squares() < CORRIDOR_FROM_SQUARES || problem.clues().len() < 2 {
        let mut step = sat(EncodingConfig::default());
        step.rivals = vec![sat(pairwise.into()).request];
        return step;
    }
    let corridor = TimeIndexedConfig {
        corridor: Some(CLUED_CORRIDOR_SLACK),
        ..TimeIndexedConfig::default()
    };
    // The whole formula first: where the race cannot run (one core,
    // or not within the memory budget), it is the one that runs.
    let mut step = sat(pairwise.into());
    step.rivals = vec![sat(corridor.into()).request];
    step
}

/// The encoding a request for `problem` has when the caller names none:
/// the time-indexed encoding's defaults on a board, the successor
/// encoding's (lazy subtours) on a graph from a file, which has no places
/// for the time-indexed encoding's pruning.
pub fn default_config(problem: &Problem) -> EncodingConfig {
    if problem.board().graph().is_some() {
        SuccessorConfig::default().into()
    } else {
        EncodingConfig::default()
    }
}

/// Whether the formula written for `problem` (by `encode`, `stats`,
/// Python's `encode`) with no encoding named is the successor encoding:
/// on a graph, which has no time-indexed encoding, and on a board past
/// the time-indexed encoding's [`TimeIndexed::MAX_SQUARES`], where it
/// would be refused (closed 100x100: 4.7 million clauses written in under
/// a second; docs/encodings.md, "The complete CNF for solver programs").
///
/// [`TimeIndexed::MAX_SQUARES`]: crate::encoding::TimeIndexed::MAX_SQUARES
fn writes_successor(problem: &Problem) -> bool {
    problem.board().graph().is_some()
        || problem.board().squares() > crate::encoding::TimeIndexed::MAX_SQUARES
}

/// The formula `encode` writes for `problem` when no encoding is named:
/// the successor encoding whole where [`writes_successor`] says so, else
/// the time-indexed encoding's defaults.
pub fn written_config(problem: &Problem) -> EncodingConfig {
    if writes_successor(problem) {
        whole_successor()
    } else {
        EncodingConfig::default()
    }
}

/// The successor encoding's defaults with its subtours excluded by the
/// formula itself (the Chinese remainder encoding).
fn whole_successor() -> EncodingConfig {
    SuccessorConfig {
        subtours: Subtours::Complete,
        ..SuccessorConfig::default()
    }
    .into()
}

/// The formula the default route solves for `problem`, whole (its
/// subtours excluded by the formula itself), for a caller that takes the
/// CNF away, as Python's `encode(encoding="auto")` does: the complete
/// successor encoding for a problem without clues (one variable per move,
/// linear in the board: 20x20 in about 10,000 variables against the
/// time-indexed encoding's 168,000), the time-indexed encoding for one
/// with clues, which pin its x(move, square) variables.
pub fn formula_config(problem: &Problem) -> EncodingConfig {
    // A graph's clues go by position too: it has no time-indexed encoding.
    if problem.clues().is_empty() || problem.board().graph().is_some() {
        whole_successor()
    } else {
        EncodingConfig::default()
    }
}

/// Checks that [`Method::Auto`] can serve `request` for `problem`: each
/// step of its route can. A seed is for Warnsdorff's rule, so it is
/// refused where the route has none.
pub(crate) fn check_supports(problem: &Problem, request: &Request) -> Result<(), Error> {
    let steps = route(problem, request);
    if request.seed.is_some() && steps.iter().all(|step| step.method != Method::Warnsdorff) {
        return Err(Error::Unsupported(
            crate::error::Unsupported::SeedWithoutWarnsdorff(steps[0].method.name()),
        ));
    }
    for step in &steps {
        step.method.check_supports(problem, &step.request)?;
    }
    Ok(())
}

/// Finds one tour by [`Method::Auto`]'s route, within `request.timeout`
/// for the whole route. The gate has been passed.
pub(super) fn find_tour(problem: &Problem, request: &Request) -> Result<Solved, Error> {
    let deadline = Deadline::new(request.timeout);
    let mut before = String::new();
    let steps = route(problem, request);
    let last = steps.len() - 1;
    for (index, step) in steps.into_iter().enumerate() {
        let timeout = deadline.left()?;
        let within_route = |request: Request| Request {
            timeout,
            gate: false,
            ..request
        };
        let step_request = within_route(step.request);
        let found = if step.rivals.is_empty() {
            SolveJob {
                method: step.method,
                request: step_request,
                ..SolveJob::new(problem)
            }
            .run()
        } else {
            let entrants: Vec<Request> = std::iter::once(step_request)
                .chain(step.rivals.into_iter().map(within_route))
                .collect();
            solve_racing(problem, &entrants)
        };
        match found {
            Err(Error::Search(SearchError::GaveUp { method, attempts })) if index < last => {
                before = format!("{before}{method} gave up after {attempts} attempts; then ");
            }
            Err(Error::Run(RunError::Timeout { .. })) => return Err(deadline.expired().into()),
            Ok(solved) => {
                return Ok(Solved {
                    route: format!("{before}{}", solved.route),
                    ..solved
                })
            }
            Err(other) => return Err(other),
        }
    }
    Err(Error::Sat(SatError::NoAnswer))
}

/// The method and request [`Method::Auto`] enumerates every tour of
/// `problem` with (`count`, `solve --all`): the one step of its route.
pub(crate) fn every_tour_step(problem: &Problem, request: &Request) -> Step {
    let request = Request {
        every_tour: true,
        ..request.clone()
    };
    route(problem, &request).pop().expect("a route has a step")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::TimeIndexed;
    use crate::model::board::Board;

    #[test]
    fn the_successor_encoding_is_written_past_the_time_indexed_limit_and_on_graphs() {
        let board = |cols| Problem::new(Board::new(1, cols).unwrap());
        assert!(!writes_successor(&board(TimeIndexed::MAX_SQUARES)));
        assert!(writes_successor(&board(TimeIndexed::MAX_SQUARES + 1)));
        assert!(matches!(
            written_config(&board(TimeIndexed::MAX_SQUARES + 1)),
            EncodingConfig::Successor(SuccessorConfig {
                subtours: Subtours::Complete,
                ..
            })
        ));
        assert!(matches!(
            written_config(&board(8)),
            EncodingConfig::TimeIndexed(_)
        ));
        let graph = crate::model::graph::Graph::new(3, &[(1, 2), (2, 3), (1, 3)]).unwrap();
        assert!(writes_successor(&Problem::new(Board::from_graph(graph))));
    }
}
