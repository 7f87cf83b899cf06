//! [`Method::Auto`], the default: the route that answers a problem
//! fastest, by a rule measured with `scripts/bench-auto.sh` (the figures
//! are in `docs/benchmarks.md`, "The default route"):
//!
//! | problem | one tour (`solve`) | every tour (`count`, `solve --all`) |
//! | --- | --- | --- |
//! | no clues | Warnsdorff's rule; if it gives up, SAT: successor encoding, built-in `CaDiCaL` | backtracking; for a plain `count` (the number only), the frontier counter where it is the faster (`frontier_is_fastest`) |
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
/// same or a little slower (docs/benchmarks.md, "The race on clued
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
/// the faster there (docs/benchmarks.md, "A corridor around the clues").
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
/// default, or a proof.
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
/// last is complete.
pub(crate) fn route(problem: &Problem, request: &Request) -> Vec<Step> {
    let sat = |config: EncodingConfig, backend: Backend| Step {
        method: Method::Sat,
        request: Request {
            config,
            backend,
            seed: None,
            ..request.clone()
        },
        rivals: Vec::new(),
    };
    if problem.board().graph().is_some() {
        // A graph has no places for Warnsdorff's tie-breaks, backtracking's
        // pruning or the time-indexed encoding's: the successor encoding,
        // whose lazy cuts (and clues, by position) need none, on the
        // solver named or the successor encoding's.
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
        let mut step = sat(config, backend);
        if !named && !request.every_tour {
            // On FHCP graphs the search's time is heavy-tailed and which
            // setting wins changes from graph to graph: CaDiCaL plain and
            // CaDiCaL with its preprocessing, raced on cores of their own
            // (docs/benchmarks.md, "The FHCP Challenge Set").
            let mut rival = step.request.clone();
            rival.solver_preprocessing = true;
            step.rivals = vec![rival];
        }
        return vec![step];
    }
    if names_sat_route(problem, request) {
        return vec![Step {
            method: Method::Sat,
            request: request.clone(),
            rivals: Vec::new(),
        }];
    }
    if !problem.clues().is_empty() {
        if request.every_tour || problem.board().squares() < RACE_FROM_SQUARES {
            return vec![sat(EncodingConfig::default(), CLUED_SOLVER)];
        }
        let pairwise = TimeIndexedConfig {
            amo: Amo::Pairwise,
            ..TimeIndexedConfig::default()
        };
        // A corridor runs between pairs of clues: with one clue it would
        // be the whole formula again.
        if problem.board().squares() < CORRIDOR_FROM_SQUARES || problem.clues().len() < 2 {
            let mut step = sat(EncodingConfig::default(), CLUED_SOLVER);
            step.rivals = vec![sat(pairwise.into(), CLUED_SOLVER).request];
            return vec![step];
        }
        let corridor = TimeIndexedConfig {
            corridor: Some(CLUED_CORRIDOR_SLACK),
            ..TimeIndexedConfig::default()
        };
        // The whole formula first: where the race cannot run (one core,
        // or not within the memory budget), it is the one that runs.
        let mut step = sat(pairwise.into(), CLUED_SOLVER);
        step.rivals = vec![sat(corridor.into(), CLUED_SOLVER).request];
        return vec![step];
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
        sat(
            EncodingConfig::from(SuccessorConfig::default()),
            SUCCESSOR_SOLVER,
        ),
    ]
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

/// The formula `encode` writes for `problem` when no encoding is named:
/// the time-indexed encoding's defaults on a board; on a graph, which has
/// no time-indexed encoding, the successor encoding whole
/// ([`formula_config`]).
pub fn written_config(problem: &Problem) -> EncodingConfig {
    if problem.board().graph().is_some() {
        formula_config(problem)
    } else {
        EncodingConfig::default()
    }
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
        SuccessorConfig {
            subtours: Subtours::Complete,
            ..SuccessorConfig::default()
        }
        .into()
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

/// The step [`Method::Auto`] lists the orbits of `problem`'s tours with
/// when it stops at a limit: SAT for closed tours, whose search blocks
/// each orbit whole as it finds it, where backtracking would wade through
/// tours that are not the least of their orbits (the least turns each
/// image to start on the tour's first square, which the search cannot
/// tell from a prefix): on boards from 6x8 it found no 5 orbits in 20 s,
/// SAT in under 0.1 s (docs/benchmarks.md, "Orbits up to a limit").
/// Otherwise the step that lists every tour ([`every_tour_step`]).
pub(crate) fn orbits_up_to_limit_step(problem: &Problem, request: &Request) -> Step {
    let step = every_tour_step(problem, request);
    if step.method == Method::Backtrack && problem.is_closed() {
        return every_tour_by(problem, Method::Sat, &step.request);
    }
    step
}

/// The method and request [`Method::Auto`] counts `problem`'s tours with
/// when only their number is wanted (a plain `count`: no tour listed,
/// compared or counted up to a limit): the frontier counter where it is
/// the fastest ([`frontier_is_fastest`]), else the step that enumerates
/// them ([`every_tour_step`]).
pub(crate) fn tally_step(problem: &Problem, request: &Request) -> Step {
    let step = every_tour_step(problem, request);
    if step.method == Method::Backtrack && frontier_is_fastest(problem) {
        return Step {
            method: Method::Frontier,
            ..step
        };
    }
    step
}

/// Whether the frontier counter counts this plain problem faster than
/// backtracking, by the rule `scripts/bench-auto.sh` measured
/// (docs/benchmarks.md, "The default route" and "Meeting in the middle"):
/// the frontier's cost grows with the board's width and length,
/// backtracking's with the number of tours, which grows much faster along
/// the board. The frontier spans about as many files of the short side as
/// the leaper's longer leg (a knight's two): up to four knight files wide
/// it wins on every board; wider, on every board for closed tours (square
/// ones meet in the middle: 6x6 closed ties, and 8x8 closed takes minutes
/// where backtracking would take days), and for open ones with no end
/// fixed on boards of 30 squares or more up to seven knight files wide
/// (meeting in the middle; on 5x5 open backtracking is faster) or longer by
/// two ranks, and for open ones with an end fixed on boards of 36 squares
/// or more up to eight knight files wide (both halves of the meet know the
/// fixed ends: 7x8 from a1 to b1 in 21 s where backtracking passes a
/// minute, 6x6 from a1 0.20 s against 0.27 s). An open count with no end
/// fixed eight knight files wide is split by its ends, or on a square board
/// within a large budget counted whole ([`splits_by_ends`]): 8x8 in hours,
/// where backtracking would take years.
fn frontier_is_fastest(problem: &Problem) -> bool {
    let (short, long, reach) = sides_and_reach(problem);
    if short * reach <= 8 {
        return true;
    }
    let no_end_fixed = problem.start().is_none() && problem.end().is_none();
    problem.is_closed()
        || eight_files_open(problem)
        || (no_end_fixed && short * reach <= 14 && short * long >= 30)
        || (!no_end_fixed && short * reach <= 16 && short * long >= 36)
        || long >= short + 2
}

/// The board's short and long sides and the leaper's longer leg (at
/// least 1): the frontier spans about `short * reach` files.
fn sides_and_reach(problem: &Problem) -> (usize, usize, usize) {
    let board = problem.board();
    (
        board.rows().min(board.cols()),
        board.rows().max(board.cols()),
        board.leaper().lengths().1.max(1),
    )
}

/// The memory budget, in MiB, from which an open count with no end fixed on
/// a square board eight knight files wide is counted in one piece rather
/// than split by its ends ([`splits_by_ends`]): the budget the whole 8x8
/// count was measured within (docs/benchmarks.md, "Paths by where their
/// ends lie").
pub(crate) const WHOLE_SQUARE_EIGHT_FILES_MIB: u64 = 20_000;

/// Whether the frontier counter, in its default order, splits a whole
/// count of `problem` by its ends by itself, within a memory budget of
/// `budget_mib`: one count per class of end pairs under the board's
/// symmetries, each with both ends fixed. It does where one piece
/// outgrows the budget and the classes do not: an open count with no end
/// given on a board eight knight files wide and at most twice as long
/// ([`eight_files_open`]), unless the board is square and the budget
/// holds the whole count ([`WHOLE_SQUARE_EIGHT_FILES_MIB`]). Each class,
/// with both ends fixed, is the size of a cycle count (8x8: 136 classes
/// of about 2 to 10 minutes and at most 3 GB each; docs/benchmarks.md,
/// "Every open 8x8 tour by its ends", after Chernov and Stertenbrink,
/// 2014); the whole 8x8 count, meeting in the middle by where the ends
/// lie, takes far less time than the classes' sum but more memory than
/// the default budget.
pub(crate) fn splits_by_ends(problem: &Problem, budget_mib: u64) -> bool {
    let (short, long, _) = sides_and_reach(problem);
    eight_files_open(problem) && !(short == long && budget_mib >= WHOLE_SQUARE_EIGHT_FILES_MIB)
}

/// An open count with no end given, on a board eight knight files wide
/// (the short side times the leaper's longer leg is 15 or 16) and at most
/// twice as long as wide: where the open count meeting in the middle with
/// its ends anywhere needs far more than memory (8x8: about 1.8 TB
/// projected). Seven knight files and fewer meet in the middle in one
/// piece, faster than their classes would (7x8 open: 97 s; its class from
/// a1 to b1 alone takes 8 s, and it has some 200).
fn eight_files_open(problem: &Problem) -> bool {
    let (short, long, reach) = sides_and_reach(problem);
    !problem.is_closed()
        && problem.start().is_none()
        && problem.end().is_none()
        && problem.clues().is_empty()
        && (15..=16).contains(&(short * reach))
        && long <= 2 * short
}

/// The step that finds every tour of `problem` by `method`: for
/// [`Method::Auto`] its [`every_tour_step`], for any other method that
/// method with `request` as given.
pub(crate) fn every_tour_by(problem: &Problem, method: Method, request: &Request) -> Step {
    match method {
        Method::Auto => every_tour_step(problem, request),
        method => Step {
            method,
            request: request.clone(),
            rivals: Vec::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::{splits_by_ends, WHOLE_SQUARE_EIGHT_FILES_MIB};
    use crate::model::board::{Board, Leaper};
    use crate::model::problem::Problem;
    use crate::runtime::memory::DEFAULT_MEMORY_BUDGET_MIB;

    fn open(rows: usize, cols: usize, leaper: (usize, usize)) -> Problem {
        let leaper = Leaper::new(leaper.0, leaper.1).unwrap();
        Problem::new(Board::new(rows, cols).unwrap().with_leaper(leaper))
    }

    /// Eight knight files wide, at most twice as long, open with no end
    /// given: split by the ends, unless square within a budget that holds
    /// the whole count; anything else: one piece.
    #[test]
    fn open_counts_eight_knight_files_wide_split_by_their_ends() {
        let knight = (1, 2);
        let budget = DEFAULT_MEMORY_BUDGET_MIB;
        let large = WHOLE_SQUARE_EIGHT_FILES_MIB;
        for (rows, cols, leaper, budget, split) in [
            (8, 8, knight, large, false),
            (8, 8, knight, large - 1, true),
            (8, 9, knight, large, true),
            (5, 5, (1, 3), large, false),
            (5, 5, (1, 3), budget, true),
        ] {
            let problem = open(rows, cols, leaper);
            assert_eq!(
                splits_by_ends(&problem, budget),
                split,
                "{rows}x{cols} {leaper:?} within {budget} MiB"
            );
        }
        for (rows, cols, leaper, split) in [
            (8, 8, knight, true),
            (8, 9, knight, true),
            (16, 8, knight, true),
            (8, 17, knight, false),
            (7, 8, knight, false),
            (8, 7, knight, false),
            (9, 9, knight, false),
            (5, 6, (2, 3), true),
            (4, 8, (1, 4), true),
            (4, 9, (1, 4), false),
        ] {
            let problem = open(rows, cols, leaper);
            assert_eq!(
                splits_by_ends(&problem, budget),
                split,
                "{rows}x{cols} {leaper:?}"
            );
        }
        let eight = open(8, 8, knight);
        assert!(
            !splits_by_ends(&eight.clone().closed(true), large),
            "closed"
        );
        assert!(
            !splits_by_ends(&eight.clone().with_start(Some(0)).unwrap(), budget),
            "a start"
        );
        assert!(
            !splits_by_ends(&eight.with_end(Some(63)).unwrap(), budget),
            "an end"
        );
    }
}
