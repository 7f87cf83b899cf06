//! The ways past a count's refusal or timeout: what the caller could
//! change to get the count, decided here from what the job asked and the
//! route it took, typed, for the command and Python to word.

use crate::encoding::TimeIndexed;
use crate::error::{EncodingError, Error, RunError, SatError};
use crate::solve::{Method, Request};

use super::route::tally_step;
use super::{frontier, CountJob};

/// What would work where a count was refused or ran out of time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountWayOut {
    /// The default route counts these plain tours faster, by this method
    /// (backtracking, or the frontier counter where it holds the board).
    DefaultRouteFaster(Method),
    /// More time, since no faster route is known.
    LongerTimeout,
    /// The board is too large for the time-indexed encoding.
    PastTheEncoding(PastTheEncoding),
    /// SAT's formula is over the memory budget: backtracking (where no SAT
    /// option was named), the threads that fit, a larger budget.
    SatWithinMemory {
        /// Whether backtracking takes the count.
        backtrack: bool,
        /// The threads, fewer, on which one session each fits.
        jobs_that_fit: Option<usize>,
    },
    /// The frontier counter's refusal, and what takes the count instead.
    Frontier(FrontierWayOut),
    /// A larger memory budget (the cubes of the depth given do not fit,
    /// by any method, on any number of threads).
    LargerBudget,
}

/// What counts a plain board too large for the time-indexed encoding, by
/// what the count asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PastTheEncoding {
    /// A sample or numbered cubes: nothing samples it; backtracking
    /// counts its first tours.
    Sampled,
    /// The default route in one search: no exact route counts it;
    /// backtracking counts its first tours.
    NoExactRoute,
    /// Cubes by any method but backtracking: backtracking in one search.
    BacktrackWithoutCubes,
    /// Cubes by backtracking: backtracking in one search.
    BacktrackInOneSearch,
}

/// What takes a count the frontier counter refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontierWayOut {
    /// Its meet in the middle passed the budget: an order that spills, a
    /// larger budget, and for a whole count backtracking.
    SpillingOrder {
        /// Whether the count is a part (the same order for every part).
        part: bool,
    },
    /// Its tables passed the budget: a larger budget, and for a whole
    /// count backtracking.
    LargerBudget {
        /// Whether the count is a part.
        part: bool,
    },
    /// Its files passed the disk: more room, or a larger budget.
    Disk,
    /// The board is wider than any state holds: a sample where its cubes
    /// can be numbered (`sample`), else backtracking's first tours.
    TooWide {
        /// Whether the time-indexed encoding numbers the board's cubes.
        sample: bool,
    },
}

impl CountJob<'_> {
    /// What would work where this count failed with `error`: only what a
    /// count takes (no solver programs), and only what works with the
    /// other options given; `None` where nothing is known to.
    pub fn way_out(&self, error: &Error) -> Option<CountWayOut> {
        let method = self.chosen_method();
        let plain = self.problem.clues().is_empty();
        match error {
            Error::Run(RunError::Timeout { .. } | RunError::TimedOutPartway { .. }) => {
                let faster = (method == Method::Sat && plain)
                    .then(|| faster_plain_count(self))
                    .flatten();
                Some(faster.map_or(CountWayOut::LongerTimeout, CountWayOut::DefaultRouteFaster))
            }
            Error::Encoding(EncodingError::BoardTooLargeForEncoding { .. }) if plain => {
                Some(CountWayOut::PastTheEncoding(self.past_the_encoding(method)))
            }
            Error::Sat(refusal @ SatError::OverMemoryBudget { .. }) => {
                Some(CountWayOut::SatWithinMemory {
                    // Backtracking takes clues and cubes, and no SAT
                    // option; it reads a board's squares, so no graph.
                    backtrack: method == Method::Sat
                        && !self.sat_named
                        && self.problem.board().graph().is_none(),
                    jobs_that_fit: refusal.threads_that_fit(),
                })
            }
            Error::FrontierOverMemoryBudget { meeting, .. } => {
                let part = self.options.part.is_some();
                Some(CountWayOut::Frontier(if *meeting {
                    FrontierWayOut::SpillingOrder { part }
                } else {
                    FrontierWayOut::LargerBudget { part }
                }))
            }
            Error::FrontierDisk { .. } => Some(CountWayOut::Frontier(FrontierWayOut::Disk)),
            Error::FrontierTooWide { .. } => Some(CountWayOut::Frontier(FrontierWayOut::TooWide {
                sample: self.problem.board().squares() <= TimeIndexed::MAX_SQUARES,
            })),
            Error::CubesOverMemoryBudget { .. } => Some(CountWayOut::LargerBudget),
            _ => None,
        }
    }

    /// What counts this plain board past the time-indexed encoding.
    fn past_the_encoding(&self, method: Method) -> PastTheEncoding {
        let options = &self.options;
        let cubes = options.jobs.unwrap_or(1) != 1 || options.depth.is_some();
        let sampled = options.sample.is_some() || options.cubes.is_some();
        match (method == Method::Backtrack, cubes) {
            _ if sampled => PastTheEncoding::Sampled,
            // The default route takes the frontier counter wherever its
            // frontier fits (route::tally_step).
            (false, false) => PastTheEncoding::NoExactRoute,
            (false, true) => PastTheEncoding::BacktrackWithoutCubes,
            (true, _) => PastTheEncoding::BacktrackInOneSearch,
        }
    }
}

/// The method the default route counts the job's plain tours by, where
/// that method can take the board: backtracking on any board, the
/// frontier counter where its states hold the board's frontier.
fn faster_plain_count(job: &CountJob<'_>) -> Option<Method> {
    match tally_step(job.problem, &Request::default()).method {
        Method::Backtrack => Some(Method::Backtrack),
        Method::Frontier if frontier::holds(job.problem) => Some(Method::Frontier),
        _ => None,
    }
}
