//! The ways past a search's refusal or timeout: what the caller could
//! change to get a tour, decided here from what the job asked and the
//! route it took, typed, for the command and Python to word.

use crate::encoding::EncodingConfig;
use crate::error::{EncodingError, Error, RunError, SatError};

use super::{auto, Method, SolveJob};

/// What would work where a search was refused or ran out of time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveWayOut {
    /// The default route finds plain tours fastest; `route` is its steps in
    /// words ([`auto::one_tour_route_in_words`]).
    DefaultRoute {
        /// The default route's steps, joined by "then".
        route: String,
    },
    /// Backtracking lists plain tours fastest (a SAT listing ran out of time).
    BacktrackListsFastest,
    /// More time, since no faster route is known.
    LongerTimeout,
    /// The board is too large for the encoding asked for.
    LargerBoards(LargerBoards),
    /// The formula is over the memory budget: the ways that would fit, in
    /// the order to try them.
    WithinMemory(Vec<MemoryWay>),
}

/// What takes boards larger than the encoding that refused one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LargerBoards {
    /// The successor encoding refused: its lazy subtours, or Warnsdorff's rule.
    LazySubtoursOrWarnsdorff,
    /// Another encoding refused a plain search for one tour: the successor
    /// encoding, or Warnsdorff's rule.
    SuccessorOrWarnsdorff,
    /// Another encoding refused: the successor encoding.
    Successor,
}

/// One way past SAT's memory budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryWay {
    /// The successor encoding, linear in the board.
    SuccessorEncoding,
    /// Warnsdorff's rule.
    Warnsdorff,
    /// Backtracking, which needs no formula.
    Backtrack,
    /// Fewer threads, this many, where one session per thread fits.
    Jobs(usize),
    /// A solver program, which reads the formula from disk; `successor`
    /// says the successor encoding must be named with it (the route tried it).
    SolverProgram {
        /// Whether the successor encoding must be named with the program.
        successor: bool,
    },
    /// A larger memory budget.
    LargerBudget,
}

impl SolveJob<'_> {
    /// What would work where this job failed with `error`: only what a
    /// search takes, and only what works with the other options given
    /// (the job's request is the caller's, its time limit what the gate
    /// left); `None` where nothing is known to.
    pub fn way_out(&self, error: &Error) -> Option<SolveWayOut> {
        let method = self.chosen_method();
        let (problem, request) = (self.problem, &self.request);
        let plain = problem.clues().is_empty();
        match error {
            Error::Run(RunError::Timeout { .. } | RunError::TimedOutPartway { .. }) => {
                Some(match method {
                    Method::Sat | Method::Backtrack if plain && !request.every_tour => {
                        SolveWayOut::DefaultRoute {
                            route: auto::one_tour_route_in_words(problem),
                        }
                    }
                    Method::Sat if plain => SolveWayOut::BacktrackListsFastest,
                    _ => SolveWayOut::LongerTimeout,
                })
            }
            Error::Encoding(EncodingError::BoardTooLargeForEncoding { encoding, .. }) => {
                Some(SolveWayOut::LargerBoards(match *encoding {
                    "successor" => LargerBoards::LazySubtoursOrWarnsdorff,
                    _ if plain && !request.every_tour => LargerBoards::SuccessorOrWarnsdorff,
                    _ => LargerBoards::Successor,
                }))
            }
            Error::Sat(refusal @ SatError::OverMemoryBudget { .. }) => Some(
                SolveWayOut::WithinMemory(self.ways_within_memory(method, refusal)),
            ),
            _ => None,
        }
    }

    /// The ways past SAT's memory budget. Cubes (threads, a depth) need
    /// the time-indexed encoding, SAT and a built-in solver; a proof, SAT
    /// and the whole formula in a built-in solver; any option only SAT
    /// takes, SAT; a graph, SAT (the other methods read a board's squares).
    fn ways_within_memory(&self, method: Method, refusal: &SatError) -> Vec<MemoryWay> {
        let (problem, request) = (self.problem, &self.request);
        let plain = problem.clues().is_empty();
        let board = problem.board().graph().is_none();
        let time_indexed = request.config == EncodingConfig::default();
        let cubes = self.by_cubes();
        // The default route may have tried some of the ways already.
        let tried = if method == Method::Auto {
            auto::route_steps(problem, request)
        } else {
            Vec::new()
        };
        let tried_successor = tried.contains(&(Method::Sat, Some("successor")));
        let tried_warnsdorff = tried.iter().any(|(m, _)| *m == Method::Warnsdorff);
        let mut ways = Vec::new();
        if plain
            && time_indexed
            && !tried_successor
            && !request.every_tour
            && !cubes
            && !request.proof
        {
            ways.push(MemoryWay::SuccessorEncoding);
        }
        if board && !self.sat_named && !request.every_tour && plain && !tried_warnsdorff {
            ways.push(MemoryWay::Warnsdorff);
        }
        if board && !self.sat_named && (!plain || request.every_tour) {
            ways.push(MemoryWay::Backtrack);
        }
        if let Some(fit) = refusal.threads_that_fit() {
            ways.push(MemoryWay::Jobs(fit));
        }
        if !request.every_tour && !request.proof && !cubes {
            // A solver named means SAT on the encoding given, which the
            // route's must then be.
            ways.push(MemoryWay::SolverProgram {
                successor: tried_successor,
            });
        }
        ways.push(MemoryWay::LargerBudget);
        ways
    }
}
