//! A count of the whole board, open or closed: the undirected paths or
//! cycles by rows or met in the middle, with the key its width needs, and
//! the directed tours they make.

use super::options::{Options, SquareOrder};
use super::packing::{by_key_width, Key, WithKey};
use super::schedule::{CellGraph, Lines, Schedule};
use super::state::{free_ends, Mode, MAX_WIDTH};
use super::{engine, meet, FrontierError};
use crate::count::number::{TourNumber, Wide};

/// The tour a count asks for: whether it is closed and which ends are
/// fixed, as cells of the board (`row * cols + col`).
pub(super) struct Wanted {
    /// Whether the tour is closed.
    pub(super) closed: bool,
    /// The fixed start, if any.
    pub(super) start: Option<usize>,
    /// The fixed end, if any.
    pub(super) end: Option<usize>,
}

impl Wanted {
    /// The fixed path ends (start and end, once each).
    fn fixed_ends(&self) -> Vec<usize> {
        let mut ends: Vec<usize> = self.start.into_iter().chain(self.end).collect();
        ends.dedup();
        ends
    }
}

/// Directed open tours: twice the paths when no end is fixed, else the
/// paths with the fixed ends.
pub(super) fn count_open(
    graph: &CellGraph,
    wanted: &Wanted,
    options: &Options,
) -> Result<TourNumber, FrontierError> {
    if wanted.start.is_some() && wanted.start == wanted.end {
        return Ok(TourNumber::ZERO);
    }
    let ends = wanted.fixed_ends();
    let paths = count_undirected(graph, &ends, false, options)?;
    if ends.is_empty() {
        paths.checked_mul(2).ok_or(FrontierError::Overflow)
    } else {
        Ok(paths)
    }
}

/// Directed closed tours on three or more squares.
pub(super) fn count_closed(
    graph: &CellGraph,
    squares: usize,
    wanted: &Wanted,
    options: &Options,
) -> Result<TourNumber, FrontierError> {
    match (wanted.start, wanted.end) {
        // A tour s … e closed by the move e–s is a path with ends s and e.
        (Some(s), Some(e)) => {
            if s != e && graph.is_move(s, e) {
                count_undirected(graph, &[s, e], false, options)
            } else {
                Ok(TourNumber::ZERO)
            }
        }
        (Some(_), None) | (None, Some(_)) => count_undirected(graph, &[], true, options)?
            .checked_mul(2)
            .ok_or(FrontierError::Overflow),
        (None, None) => {
            let n = u128::try_from(squares).map_err(|_| FrontierError::Overflow)?;
            count_undirected(graph, &[], true, options)?
                .checked_mul(2 * n)
                .ok_or(FrontierError::Overflow)
        }
    }
}

/// Undirected Hamiltonian cycles (`closed`), or undirected Hamiltonian
/// paths whose ends include `ends`, on a graph of at least two squares.
pub(super) fn count_undirected(
    graph: &CellGraph,
    ends: &[usize],
    closed: bool,
    options: &Options,
) -> Result<TourNumber, FrontierError> {
    let meets = ends.is_empty() || (!closed && ends.len() <= 2);
    if meets && matches!(options.order, SquareOrder::Auto | SquareOrder::Meet) {
        let (lines, mirror) = Lines::best(graph, false);
        let (lines_taken, line_length) = lines.shape;
        if options.order == SquareOrder::Meet || lines_taken <= 2 * line_length {
            // The halves keep 64-bit counts; a count past them is counted
            // forward, where counts widen as they grow.
            match meet::count(graph, &lines, mirror.as_deref(), (closed, ends), options) {
                // Each part would have to be counted forward, split there
                // by other classes: only the whole falls back.
                Err(FrontierError::Overflow) if options.part.is_some() => {
                    return Err(FrontierError::PartsOutgrown)
                }
                // The meet holds the states at its cut in memory; the line
                // orders keep on disk what does not fit (and on some
                // boards hold fewer states). Parts fall back only all
                // together, by the order their count names.
                Err(FrontierError::OverMemory { needed, .. })
                    if options.order == SquareOrder::Meet || options.part.is_some() =>
                {
                    return Err(FrontierError::MeetOverMemory { needed })
                }
                Err(FrontierError::Overflow | FrontierError::OverMemory { .. }) => {}
                counted => return counted.map(TourNumber::from_wide),
            }
        }
    }
    let plan = Schedule::best(graph, ends, options.order);
    if plan.width > MAX_WIDTH {
        return Err(FrontierError::TooWide {
            width: plan.width,
            max: MAX_WIDTH,
        });
    }
    let free_ends = free_ends(closed, ends.len());
    let run = Forward {
        plan: &plan,
        closed,
        free_ends,
        options,
    };
    by_key_width(plan.width, run).map(TourNumber::from_wide)
}

/// A count processed forward, square by square: its schedule, whether it
/// counts cycles, the path ends still free, and its options.
struct Forward<'a> {
    plan: &'a Schedule,
    closed: bool,
    free_ends: u8,
    options: &'a Options<'a>,
}

impl WithKey for Forward<'_> {
    type Out = Result<Wide, FrontierError>;

    fn run<K: Key>(self, used_shift: u32) -> Self::Out {
        let mode = Mode {
            closed: self.closed,
            free_ends: self.free_ends,
            ends_here: self.free_ends,
            used_shift,
        };
        engine::run::<K>(self.plan, mode, self.options)
    }
}
