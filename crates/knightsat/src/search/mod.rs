//! Finding tours without SAT: Warnsdorff's greedy rule and a complete
//! backtracking search ordered by it.
//!
//! | method | promises | time |
//! | --- | --- | --- |
//! | [`warnsdorff()`] | a tour, or it gives up ([`SearchError::GaveUp`]); never "no tour" | linear per attempt, a bounded number of attempts |
//! | [`backtrack()`] | a tour, or a proof by exhaustion that there is none | exponential in the worst case |
//!
//! Both work on any board the [`Board`] type describes (holes, any leaper),
//! open or closed, with a start or an end; backtracking follows clues too.
//! Every tour either returns has passed [`crate::model::verify::verify`]
//! against the problem. Neither recurses, so neither can overflow the stack,
//! and neither allocates more than a few words per square, so Warnsdorff's
//! rule tours boards of millions of squares.

use crate::model::unsupported::Unsupported;
use crate::model::verify::Violation;
use crate::runtime::RunError;
use crate::tour::TourError;
pub mod backtrack;
mod prefix;
pub mod warnsdorff;

use crate::model::board::Board;
use crate::model::problem::Problem;
use crate::model::verify::verify;
use crate::tour::Tour;

pub(crate) use backtrack::each_tour_keeping;
pub use backtrack::{backtrack, backtrack_until};
pub(crate) use prefix::PrefixCounter;
pub use warnsdorff::{warnsdorff, warnsdorff_until, TieBreak, Warnsdorff};

/// Backtracking's name in a route's words.
pub const BACKTRACKING: &str = "backtracking";

/// The most moves a leaper has from one square.
const MAX_MOVES: usize = 8;

/// The tour `squares`, verified against `problem` (with the start a closed
/// tour gets by default).
fn verified(problem: &Problem, squares: Vec<usize>) -> Result<Tour, SearchError> {
    // (A copy of the problem, board and all, only where the start differs.)
    if problem.effective_start() == problem.start() {
        verify(&squares, problem)?;
    } else {
        verify(&squares, &problem.rooted())?;
    }
    Ok(Tour {
        board: problem.board().clone(),
        closed: problem.is_closed(),
        squares,
    })
}

/// How many squares of a1's colour and of the other the board has.
fn colour_counts(board: &Board) -> [usize; 2] {
    let others = (0..board.squares()).filter(|&s| board.colour(s)).count();
    [board.squares() - others, others]
}

/// The colour every open tour must start on, when the counts force it: a
/// colour-changing leaper alternates colours, so with one square more of
/// one colour the tour starts (and ends) on it.
fn forced_start_colour(board: &Board, closed: bool) -> Option<bool> {
    let [a1s, others] = colour_counts(board);
    match (board.leaper().changes_colour(), closed) {
        (true, false) if a1s == others + 1 => Some(false),
        (true, false) if others == a1s + 1 => Some(true),
        _ => None,
    }
}

/// Why a search found no tour and proved nothing, or stopped.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// An incomplete method (Warnsdorff's rule) stopped without a tour. It
    /// proves nothing: a tour may well exist.
    #[error("{method} found no tour in {attempts} attempts, which does not mean that none exists")]
    GaveUp {
        /// The method, as it names itself (`Warnsdorff's rule`).
        method: &'static str,
        /// How many attempts it made.
        attempts: u32,
    },
    /// A formula that keeps only some tours (a block schedule, a corridor
    /// around the clues) has none. It proves nothing about the others.
    #[error("no tour keeps to {restriction}, which does not mean that none exists")]
    NoneWithin {
        /// The restriction, in words (`the block schedule 3x3`).
        restriction: String,
    },
    /// A request that cannot be served.
    #[error("{0}")]
    Unsupported(#[from] Unsupported),
    /// A walk that is not a tour of the problem: a bug, caught.
    #[error(transparent)]
    Tour(#[from] TourError),
    /// A time limit, an interrupt, or reading and writing files.
    #[error(transparent)]
    Run(#[from] RunError),
}

impl From<Violation> for SearchError {
    fn from(violation: Violation) -> SearchError {
        SearchError::Tour(TourError::InvalidTour(violation))
    }
}
