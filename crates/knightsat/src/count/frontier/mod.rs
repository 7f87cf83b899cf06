//! Counts the tours of a leaper on a rectangular board with holes — the
//! Hamiltonian paths or cycles of the leaper graph — without listing them,
//! by a frontier-based dynamic program (the transfer-matrix method).
//!
//! The squares are processed one at a time in row-major order of the board
//! or of its transpose, whichever keeps the frontier narrower (for a knight
//! on a board `w` wide, about two rows: `2w + 1` squares). A state records,
//! for each frontier square, whether it still needs tour edges and which
//! other frontier square its path fragment ends at (see `state`); each step
//! chooses the new square's edges to earlier squares, drops states that can
//! no longer become a tour, and merges equal states by adding their counts.
//! At the end of a line, where the processed squares are their own mirror
//! image, a state and its mirror image merge too (when no end is fixed).
//!
//! # What is counted
//!
//! Directed tours visiting every non-hole square once, as knightsat counts
//! them. With `N` squares, `P` undirected Hamiltonian paths and `C`
//! undirected Hamiltonian cycles:
//!
//! | spec | count |
//! | --- | --- |
//! | open | `2P` |
//! | open, start `s` (or end `s`) | paths with an end at `s` |
//! | open, start `s`, end `e` | paths with ends `s` and `e` (0 if `s == e`) |
//! | closed | `2NC` |
//! | closed, start or end only | `2C` |
//! | closed, start `s`, end `e` | cycles through the edge `{s, e}` |
//!
//! Small boards follow the rule that a closed tour is a sequence of more
//! than one square whose last square is a move from its first: one square
//! has one open tour and no closed one; two squares a move apart have two
//! open tours (one from each) and the same two closed ones.
//!
//! # The files
//!
//! This file is the counter's door: [`count_tours`] and its [`Limits`],
//! and the dispatch of one count ([`count`]: split by its ends, or whole).
//! `options.rs` what a count is given and tells, `error.rs` why it stops,
//! `ends.rs` an open count split by its end pairs, `whole.rs` a count of
//! the whole board; `schedule.rs`, `state.rs`, `engine.rs`, `table.rs`,
//! `shard.rs`, `spill.rs`, `budget.rs`, `packing.rs` and `meet/` the
//! machinery (docs/architecture.md says what each holds); `time_left.rs`
//! the estimate of the time a count has left, from its progress.

mod budget;
mod ends;
mod engine;
mod error;
mod meet;
mod options;
mod packing;
mod saved;
mod schedule;
mod shard;
mod spill;
mod state;
mod table;
mod time_left;
mod whole;

pub(crate) use ends::end_classes_of;
pub(crate) use error::FrontierError;
pub use options::{Batch, PartSplit, Piece, SquareOrder, SquareProgress};
pub(crate) use options::{Options, Part, Saving};
pub(crate) use spill::SpillDir;
pub use time_left::TimeLeft;

use ends::count_part_by_ends;
use schedule::{frontier_width, CellGraph, Lines};
use whole::{count_closed, count_open, Wanted};

use crate::count::number::TourNumber;
use crate::error::RunError;
use crate::model::problem::Problem;
use state::MAX_WIDTH;

/// The directory a count's spill directory is made in: `spill_dir` when
/// given, else the system's temporary directory.
pub fn spill_parent(spill_dir: Option<&std::path::Path>) -> std::path::PathBuf {
    spill_dir.map_or_else(std::env::temp_dir, std::path::Path::to_path_buf)
}

/// Whether a state of the counter holds `problem`'s board: its frontier,
/// along the line order that keeps it narrower, is at most 23 squares
/// wide and the board at most 2^20 cells. A count of a board it does not
/// hold is refused ([`crate::error::Error::FrontierTooWide`] or a board too
/// large).
pub fn holds(problem: &Problem) -> bool {
    CellGraph::new(problem.board()).is_ok_and(|graph| {
        let (lines, _) = Lines::best(&graph, false);
        frontier_width(&graph, &lines.squares) <= MAX_WIDTH
    })
}

/// Counts the directed tours of `problem` (see the module documentation
/// for exactly what is counted); its clues are not read.
///
/// # Errors
///
/// [`FrontierError::TooManySquares`] and [`FrontierError::TooWide`] for a
/// board the counter cannot number or whose frontier a state cannot hold,
/// [`FrontierError::OverMemory`] when the tables would pass
/// `options.memory_budget`, [`FrontierError::Stopped`] when `options.stop`
/// is set, and [`FrontierError::Overflow`] for a count past 2^256 − 1.
pub(crate) fn count(problem: &Problem, options: &Options) -> Result<TourNumber, FrontierError> {
    match count_on_threads(problem, options) {
        // Under a limit that leaves no room for another thread's stack,
        // one thread still counts.
        Err(FrontierError::NoThread { .. }) if options.jobs > 1 => count_on_threads(
            problem,
            &Options {
                jobs: 1,
                ..*options
            },
        ),
        counted => counted,
    }
}

/// [`count`] on `options.jobs` threads, failing with
/// [`FrontierError::NoThread`] when one cannot start.
fn count_on_threads(problem: &Problem, options: &Options) -> Result<TourNumber, FrontierError> {
    if let Some(part) = options.part.filter(|part| part.by == PartSplit::Ends) {
        if problem.is_closed() {
            // A cycle has no ends to split by: the first part is the whole
            // (the count refuses to be split so before it starts).
            let whole = Options {
                part: None,
                ..*options
            };
            return if part.takes_earlier_tours() {
                count(problem, &whole)
            } else {
                Ok(TourNumber::ZERO)
            };
        }
        return count_part_by_ends(problem, part, options);
    }
    if options.part.is_none() && options.by_ends {
        let whole = Part {
            index: 0,
            of: 1,
            by: PartSplit::Ends,
            top_first: false,
        };
        return count_part_by_ends(problem, whole, options);
    }
    let board = problem.board();
    let graph = CellGraph::new(board)?;
    let cell = |index: usize| CellGraph::cell_of(board, index);
    let wanted = Wanted {
        closed: problem.is_closed(),
        start: problem.start().map(cell),
        end: problem.end().map(cell),
    };
    if board.squares() == 1 {
        // One tour of one square, never closed; start and end, if given,
        // are that square. It is complete before any split, so it is the
        // first part's alone.
        let first_part = options.part.is_none_or(Part::takes_earlier_tours);
        return Ok(TourNumber::from(u64::from(!wanted.closed && first_part)));
    }
    if !graph.is_connected() {
        return Ok(TourNumber::ZERO);
    }
    // Two squares: every open tour also returns to its first square.
    if wanted.closed && board.squares() >= 3 {
        count_closed(&graph, board.squares(), &wanted, options)
    } else {
        count_open(&graph, &wanted, options)
    }
}

/// What a frontier count is given besides its problem, in the counter's
/// own terms (no solver's request): threads, limits, the order of the
/// squares, where states past the budget go, the part, and who hears how
/// it goes.
pub(crate) struct Limits<'a> {
    /// Threads sharing each step's states (at least one).
    pub jobs: usize,
    /// The memory the state tables may take, in bytes.
    pub memory_budget: u64,
    /// The time limit, if any.
    pub timeout: Option<std::time::Duration>,
    /// Stops the count when raised.
    pub interrupt: &'a crate::runtime::interrupt::Interrupt,
    /// The order of the squares.
    pub order: SquareOrder,
    /// Where the spill directory is made (the system's temporary
    /// directory when `None`).
    pub spill_dir: Option<&'a std::path::Path>,
    /// The part of the count to make, if it is split.
    pub part: Option<Part>,
    /// Whether a whole count is split by its ends, as the caller's policy
    /// decides ([`crate::count::route::splits_by_ends`]).
    pub by_ends: bool,
    /// Hears after every square.
    pub progress: Option<&'a (dyn Fn(SquareProgress) + Sync)>,
    /// Where the count keeps what it has done, and goes on from what an
    /// earlier run of it kept.
    pub checkpoint: Option<&'a crate::count::checkpoint::Checkpoint>,
}

/// Counts the tours of `problem` by its frontier, without listing one:
/// exactly what `count` means by every other method (directed tours; from
/// every start unless the problem fixes one), within `limits`. With a
/// part, the tours of that part alone ([`Part`]). The time limit stops
/// the count ([`crate::error::Error::Run(RunError::Timeout)`]), and the
/// memory budget bounds the state tables
/// ([`crate::error::Error::FrontierOverMemoryBudget`], raised as soon as
/// they would pass it). Clues are refused: the frontier does not know a
/// square's move number.
pub(crate) fn count_tours(
    problem: &Problem,
    limits: &Limits<'_>,
) -> Result<TourNumber, crate::error::Error> {
    use crate::error::{Error, Unsupported};
    if !problem.clues().is_empty() {
        return Err(Error::Unsupported(Unsupported::CluesByFrontier));
    }
    let board = problem.board();
    let budget_mib = limits.memory_budget >> 20;
    let stop = crate::runtime::stop::Stop::new();
    let spill = SpillDir::stopped_by(&spill_parent(limits.spill_dir), &stop);
    stop.within(limits.timeout, limits.interrupt, || {
        let options = Options {
            jobs: limits.jobs.max(1),
            stop: Some(stop.flag()),
            memory_budget: Some(limits.memory_budget),
            progress: limits.progress,
            order: limits.order,
            spill: Some(&spill),
            part: limits.part,
            by_ends: limits.by_ends,
            keep: None,
            saving: limits.checkpoint.map(|checkpoint| Saving {
                checkpoint,
                name: "count",
            }),
        };
        count(problem, &options).map_err(|error| match error {
            FrontierError::Stopped => Error::Run(RunError::Stopped),
            FrontierError::NoThread { message } => Error::FrontierNoThread { message },
            FrontierError::Overflow => Error::CountOverflow,
            FrontierError::PartsOutgrown => Error::FrontierPartsOutgrown {
                board: board.shape(),
            },
            FrontierError::OverMemory { needed, .. } => Error::FrontierOverMemoryBudget {
                board: board.shape(),
                needed_mib: needed.div_ceil(1 << 20),
                budget_mib,
                on_disk_mib: spill.most().div_ceil(1 << 20),
                meeting: false,
            },
            FrontierError::MeetOverMemory { needed } => Error::FrontierOverMemoryBudget {
                board: board.shape(),
                needed_mib: needed.div_ceil(1 << 20),
                budget_mib,
                on_disk_mib: spill.most().div_ceil(1 << 20),
                meeting: true,
            },
            FrontierError::Disk {
                dir,
                message,
                on_disk,
            } => Error::FrontierDisk {
                dir: dir.display().to_string(),
                message,
                on_disk_mib: on_disk.div_ceil(1 << 20),
            },
            FrontierError::TooWide { width, max } => Error::FrontierTooWide {
                board: board.shape(),
                width,
                max,
            },
            FrontierError::TooManySquares { squares, max } => Error::FrontierTooManySquares {
                board: board.shape(),
                squares,
                max,
            },
            FrontierError::Checkpoint(error) => Error::Checkpoint(error),
        })
    })
}

#[cfg(test)]
mod tests;
