//! What a frontier count is given and what it tells: the order of the
//! squares, the options of one count, a part of a count split between
//! tasks, and the progress it reports.

use std::sync::atomic::AtomicBool;

use super::packing;
use super::SpillDir;

/// The order in which the frontier counter takes the squares, line by line
/// along the board's longer side or anti-diagonal by anti-diagonal. Each
/// gives the same counts by a different computation (other frontiers,
/// other states), which is how a count that no table lists is checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SquareOrder {
    /// [`SquareOrder::Meet`] on boards at most twice as long as wide,
    /// where it holds fewer states and was the faster (docs/notebook.md,
    /// "Meeting in the middle", and with fixed ends "Every open 8x8 tour
    /// by its ends");
    /// [`SquareOrder::Rows`] for the rest (on long boards the halves'
    /// counts pass 64 bits), and where meeting in the middle would pass
    /// the memory budget (it holds the states at its cut in memory; rows
    /// keep on disk what does not fit), except for a part, which is
    /// refused instead: every part of a count takes one order. A whole
    /// open count with no end given eight knight files wide is first split
    /// by its ends, one meet a class of end pairs.
    #[default]
    Auto,
    /// Every line the same way (row-major order).
    Rows,
    /// Every other line the other way (a boustrophedon).
    Snake,
    /// Rows from both ends, joined in the middle: the first part of the
    /// squares forward, the rest backward, and the pairs of states that
    /// make a cycle or a path counted (every count: a fixed path end is
    /// known to both halves, and its one edge is on one side).
    Meet,
    /// Anti-diagonal by anti-diagonal (by rank plus file, then by rank),
    /// the sweep that frontier methods for grid graphs also use. For the
    /// knight its frontier is about three diagonals wide against the line
    /// orders' two lines, so it holds more states (docs/notebook.md,
    /// "Order of the squares"); it is here to be measured against them.
    Diagonal,
}

impl SquareOrder {
    /// Every order.
    pub const ALL: [SquareOrder; 5] = [
        SquareOrder::Auto,
        SquareOrder::Rows,
        SquareOrder::Snake,
        SquareOrder::Meet,
        SquareOrder::Diagonal,
    ];

    /// The order's name, as a part's header records it and
    /// `--frontier-order` takes it: `auto`, `rows`, `snake`, `meet`,
    /// `diagonal`.
    pub fn name(self) -> &'static str {
        match self {
            SquareOrder::Auto => "auto",
            SquareOrder::Rows => "rows",
            SquareOrder::Snake => "snake",
            SquareOrder::Meet => "meet",
            SquareOrder::Diagonal => "diagonal",
        }
    }
}

/// How to run a count.
#[derive(Clone, Copy)]
pub(crate) struct Options<'a> {
    /// Threads to use (1 or more; 0 is taken as 1).
    pub(crate) jobs: usize,
    /// Set to `true` (by another thread) to stop with [`FrontierError::Stopped`].
    pub(crate) stop: Option<&'a AtomicBool>,
    /// The most bytes the state tables may take at once.
    pub(crate) memory_budget: Option<u64>,
    /// Called after each square is processed.
    pub(crate) progress: Option<&'a (dyn Fn(SquareProgress) + Sync)>,
    /// The order of the squares.
    pub(crate) order: SquareOrder,
    /// Where to keep the states that do not fit in the budget; without
    /// it, a count refuses to pass the budget.
    pub(crate) spill: Option<&'a SpillDir>,
    /// Count one part of the tours only ([`Part`]).
    pub(crate) part: Option<Part>,
    /// Count the whole split by its ends (the caller's policy decides:
    /// [`crate::count::route::splits_by_ends`]); a part ignores it.
    pub(crate) by_ends: bool,
    /// The successors a step may keep, by their packed words: meeting in
    /// the middle, a half step drops at once the bottom states no top
    /// state can complete, rather than tabling them first.
    pub(crate) keep: Option<&'a (dyn Fn(u128) -> bool + Sync)>,
    /// Where the count keeps what it has done, and the name of the piece
    /// it is counting there ([`Saving`]).
    pub(crate) saving: Option<Saving<'a>>,
}

/// A count's checkpoint, and the name there of the piece being counted:
/// `count` for the whole, `count/class 3` for a class of end pairs within
/// it, and so on down ([`super::saved::piece`]).
#[derive(Clone, Copy)]
pub(crate) struct Saving<'a> {
    /// The checkpoint.
    pub(crate) checkpoint: &'a crate::count::checkpoint::Checkpoint,
    /// The piece's name.
    pub(crate) name: &'a str,
}

/// How a frontier count is split into parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PartSplit {
    /// By a class of the states at one step ([`SquareOrder`] and the
    /// problem decide which): any count.
    #[default]
    States,
    /// By the pair of squares the path ends on (Chernov and Stertenbrink,
    /// 2014, who counted the open 8x8 tours so): the pairs fall into
    /// classes under the board's symmetries, each class's tours counted
    /// once with both ends fixed and weighted by the pairs it stands for,
    /// and the classes dealt out in turn to the parts. Open counts only
    /// (a fixed start or end stays fixed; the other end is split by).
    Ends,
}

/// One of `of` parts of a count (`index` from 0): the tours split by a
/// class of the states at one step, the same step and classes in every
/// part, so that the parts' counts add up to the whole's.
///
/// Meeting in the middle, the class is a hash of the bottom degrees that
/// the first half steps have fixed for the cut's squares: states that
/// differ there never merge again, so each part's half-step tables hold
/// only its own states (about a part's share of the whole's), and each
/// part joins only the top's states those degrees fit. Forward, it is a
/// hash of the whole state at the middle step, whose successors merge
/// again across parts: correct, but each part's tables past that step
/// are less than the whole's by much less than the share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    /// This part, from 0.
    pub(crate) index: usize,
    /// The parts, at least 1.
    pub(crate) of: usize,
    /// What the parts split.
    pub(crate) by: PartSplit,
    /// Meeting in the middle, whether the squares whose degrees decide a
    /// state's part are those whose top degrees settle first, so that the
    /// top's largest steps hold the part's share (a class of end pairs
    /// split among parts), rather than the first the bottom's half steps
    /// add.
    pub(crate) top_first: bool,
}

impl Part {
    /// Whether a state of hash `hash` belongs to this part: a class of
    /// the hash independent of the bits that pick a shard or a slot.
    pub(crate) fn holds(self, hash: u64) -> bool {
        packing::mix(hash ^ 0x5851_f42d_4c95_7f2d) % self.of as u64 == self.index as u64
    }

    /// Whether a state of hash `hash` is counted where `part` is the part
    /// being split out: always, where none is.
    pub(crate) fn admits(part: Option<Part>, hash: u64) -> bool {
        part.is_none_or(|part| part.holds(hash))
    }

    /// Whether the tours completed before the states are split are this
    /// part's: the first part's alone, as every part completes them.
    pub(crate) fn takes_earlier_tours(self) -> bool {
        self.index == 0
    }
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            jobs: 1,
            stop: None,
            memory_budget: None,
            progress: None,
            order: SquareOrder::Auto,
            spill: None,
            part: None,
            by_ends: false,
            keep: None,
            saving: None,
        }
    }
}

/// Where a count is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SquareProgress {
    /// Steps taken: a square each, and when meeting in the middle one
    /// more for each square of the cut (its edges to the bottom).
    pub done: usize,
    /// Steps to take.
    pub total: usize,
    /// States in the table now.
    pub states: usize,
    /// Bytes the tables take now.
    pub bytes: u64,
    /// Bytes of states kept on disk now, past the memory budget.
    pub on_disk: u64,
    /// Once meeting in the middle splits its states into batches by the
    /// budget, the batch being counted. Each batch runs the half steps
    /// again from where it was split, so `done` steps back when one
    /// starts. (Not `count --part`, which splits a count between
    /// processes.)
    pub batch: Option<Batch>,
    /// Where a count runs as several counts one after another, each from
    /// its first step, the one being counted.
    pub piece: Option<Piece>,
    /// Whether the count meets in the middle, so that its last step is
    /// the join of the two halves' tables: the largest single step.
    pub joins: bool,
}

/// The batch a count met in the middle is counting, once its half steps'
/// states have been split into batches by the memory budget
/// ([`SquareProgress::batch`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    /// The batch being counted, from 1.
    pub under_way: usize,
    /// The batches made so far.
    pub made: usize,
    /// The states the batch being counted began with, at the half step
    /// where it was split off.
    pub began_with: usize,
    /// The states of the batches made and not yet begun, each at the half
    /// step where it was split off.
    pub waiting: usize,
}

/// One of the counts a count runs one after another, each from its first
/// step ([`SquareProgress::piece`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// An open count by where its two ends lie, first part: the paths
    /// with both ends in one half of the board.
    BothEndsInOneHalf,
    /// An open count by where its two ends lie, second part: the paths
    /// with one end in each half.
    AnEndInEachHalf,
    /// A count split by its ends: one class of end pairs (from 1), of the
    /// classes this count (or part) takes.
    EndClass {
        /// The class being counted, from 1.
        class: usize,
        /// The classes in all.
        of: usize,
    },
}
