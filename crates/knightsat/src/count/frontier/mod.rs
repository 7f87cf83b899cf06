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

mod budget;
mod engine;
mod meet;
mod packing;
mod schedule;
mod shard;
mod spill;
mod state;
mod table;

pub(crate) use spill::SpillDir;

use crate::error::RunError;
use std::fmt;
use std::sync::atomic::AtomicBool;

use schedule::{frontier_width, CellGraph, Lines, Schedule};

use crate::count::number::TourNumber;
use crate::model::problem::Problem;
use crate::runtime::memory::bytes_of_mib;
use packing::{Base12, BASE12_SLOTS};
use state::{Mode, MAX_WIDTH, MAX_WIDTH_U64};

/// The order in which the frontier counter takes the squares, line by line
/// along the board's longer side or anti-diagonal by anti-diagonal. Each
/// gives the same counts by a different computation (other frontiers,
/// other states), which is how a count that no table lists is checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SquareOrder {
    /// [`SquareOrder::Meet`] on boards at most twice as long as wide,
    /// where it holds fewer states and was the faster (docs/benchmarks.md,
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
    /// orders' two lines, so it holds more states (docs/benchmarks.md,
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
    /// The successors a step may keep, by their packed words: meeting in
    /// the middle, a half step drops at once the bottom states no top
    /// state can complete, rather than tabling them first.
    pub(crate) keep: Option<&'a (dyn Fn(u128) -> bool + Sync)>,
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
            keep: None,
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
    /// budget, the batch being counted (from 1) and the batches made so
    /// far. Each batch runs the half steps again from where it was split,
    /// so `done` steps back when one starts. (Not `count --part`, which
    /// splits a count between processes.)
    pub batch: Option<(usize, usize)>,
    /// Where a count runs as several counts one after another, each from
    /// its first step, the one being counted.
    pub piece: Option<Piece>,
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

/// Why a count did not finish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FrontierError {
    /// The stop flag was set.
    Stopped,
    /// A count passed 2^256 − 1.
    Overflow,
    /// The state tables would need more memory than the budget.
    OverMemory {
        /// Bytes that would have been in use.
        needed: u64,
        /// The budget.
        budget: u64,
    },
    /// The frontier is wider than a state can hold.
    TooWide {
        /// The narrowest frontier found for this board.
        width: usize,
        /// The widest a state holds.
        max: usize,
    },
    /// Writing or reading the states kept on disk failed.
    Disk {
        /// The directory they were kept in.
        dir: std::path::PathBuf,
        /// What failed.
        message: String,
        /// The most bytes the count had on disk at once.
        on_disk: u64,
    },
    /// Meeting in the middle, asked for by name or in parts, would pass the
    /// budget: it holds the states at its cut in memory, where the line
    /// orders keep on disk what does not fit.
    MeetOverMemory {
        /// Bytes that would have been in use.
        needed: u64,
    },
    /// A thread could not be started (an address-space or process limit).
    NoThread {
        /// What the system said.
        message: String,
    },
    /// Counting in parts, meeting in the middle, a half's 64-bit counts
    /// overflowed: the whole would be counted forward, on other parts.
    PartsOutgrown,
    /// A board of more squares than the counter numbers.
    TooManySquares {
        /// The board's squares, holes included.
        squares: usize,
        /// The most it takes.
        max: usize,
    },
}

impl fmt::Display for FrontierError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrontierError::Stopped => write!(f, "the count was stopped"),
            FrontierError::NoThread { message } => write!(f, "no thread could start: {message}"),
            FrontierError::MeetOverMemory { needed } => write!(
                f,
                "meeting in the middle needs more than {needed} bytes in memory"
            ),
            FrontierError::Overflow => write!(f, "the count does not fit in 256 bits"),
            FrontierError::OverMemory { needed, budget } => write!(
                f,
                "the count needs {needed} bytes of state tables, over the budget of {budget}"
            ),
            FrontierError::TooWide { width, max } => write!(
                f,
                "the frontier is {width} squares wide; at most {max} are supported"
            ),
            FrontierError::Disk { dir, message, .. } => {
                write!(f, "cannot keep the states in {}: {message}", dir.display())
            }
            FrontierError::PartsOutgrown => write!(
                f,
                "counting in parts meets in the middle, whose halves' counts pass 64 bits here"
            ),
            FrontierError::TooManySquares { squares, max } => {
                write!(
                    f,
                    "a board of {squares} squares: at most {max} are supported"
                )
            }
        }
    }
}

impl std::error::Error for FrontierError {}

/// The tour a count asks for: whether it is closed and which ends are
/// fixed, as cells of the board (`row * cols + col`).
struct Wanted {
    closed: bool,
    start: Option<usize>,
    end: Option<usize>,
}

impl Wanted {
    /// The fixed path ends (start and end, once each).
    fn fixed_ends(&self) -> Vec<usize> {
        let mut ends: Vec<usize> = self.start.into_iter().chain(self.end).collect();
        ends.dedup();
        ends
    }
}

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
    let budget_mib = options.memory_budget.map_or(u64::MAX, |bytes| bytes >> 20);
    if options.part.is_none() && splits_itself_by_ends(problem, options.order, budget_mib) {
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

/// A class of the pairs of squares an open tour may end on: one pair of
/// it, how many pairs it stands for, and how many directed tours each
/// path between a pair makes (2 with no end fixed, the path read either
/// way; 1 with one end fixed, where the tour starts or ends there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct EndClass {
    start: usize,
    end: usize,
    pairs: u64,
    ways: u64,
}

/// The classes of the pairs of squares that an open tour of `problem` may
/// end on, in a fixed order: unordered pairs of distinct squares (on one
/// square, that square twice; a given start or end is one of them) up to
/// the symmetries that keep the given ends, less those that no Hamiltonian path joins by a theorem: on a
/// bipartite move graph a path alternates colour classes, so its ends are
/// one in each when the classes are equal, both in the larger when it has
/// one square more, and there is none when they differ by more.
fn end_classes(problem: &Problem, graph: &CellGraph) -> Vec<EndClass> {
    let board = problem.board();
    let squares = board.squares();
    if squares == 1 {
        // The one-square tour starts and ends on its square.
        return vec![EndClass {
            start: 0,
            end: 0,
            pairs: 1,
            ways: 1,
        }];
    }
    let colouring = graph.two_colouring();
    let odd = |square: usize| {
        colouring
            .as_ref()
            .map(|c| c[CellGraph::cell_of(board, square)] < 0)
    };
    let odd_squares = (0..squares).filter(|&s| odd(s) == Some(true)).count();
    let even_squares = squares - odd_squares;
    let joinable = |a: usize, b: usize| {
        if colouring.is_none() {
            true
        } else if odd_squares == even_squares {
            odd(a) != odd(b)
        } else if odd_squares.abs_diff(even_squares) == 1 {
            let larger = Some(odd_squares > even_squares);
            odd(a) == larger && odd(b) == larger
        } else {
            false
        }
    };
    let symmetries = problem.symmetries();
    let fixed = problem.start().or(problem.end());
    let pairs: Vec<(usize, usize)> = match (problem.start(), problem.end(), fixed) {
        (Some(s), Some(e), _) => vec![(s, e)],
        (_, _, Some(f)) => (0..squares).filter(|&e| e != f).map(|e| (f, e)).collect(),
        _ => (0..squares)
            .flat_map(|s| (s + 1..squares).map(move |e| (s, e)))
            .collect(),
    };
    let ways = if fixed.is_some() { 1 } else { 2 };
    let mut classes: std::collections::BTreeMap<(usize, usize), EndClass> =
        std::collections::BTreeMap::new();
    for (s, e) in pairs {
        if s == e || !joinable(s, e) {
            continue;
        }
        // A fixed end stays first; a free pair is unordered.
        let key = symmetries
            .iter()
            .map(|map| match fixed {
                Some(_) => (map[s], map[e]),
                None => (map[s].min(map[e]), map[s].max(map[e])),
            })
            .min()
            .unwrap_or((s, e));
        classes
            .entry(key)
            .and_modify(|class| class.pairs += 1)
            .or_insert(EndClass {
                start: s,
                end: e,
                pairs: 1,
                ways,
            });
    }
    classes.into_values().collect()
}

/// The number of classes of end pairs a whole count of `problem` is split
/// into by itself, in the default order within `budget_mib`, or `None`
/// where it is counted in one piece: where the default route's rule says
/// so ([`crate::count::route::splits_by_ends`]).
pub(crate) fn split_by_ends_by_itself(
    problem: &Problem,
    order: SquareOrder,
    budget_mib: u64,
) -> Option<usize> {
    if !splits_itself_by_ends(problem, order, budget_mib) {
        return None;
    }
    let graph = CellGraph::new(problem.board()).ok()?;
    Some(end_classes(problem, &graph).len())
}

/// Whether a whole count of `problem` in `order` within `budget_mib` is
/// split by its ends by itself ([`split_by_ends_by_itself`], without
/// counting the classes).
fn splits_itself_by_ends(problem: &Problem, order: SquareOrder, budget_mib: u64) -> bool {
    order == SquareOrder::Auto && crate::count::route::splits_by_ends(problem, budget_mib)
}

/// One part of an open count split by its ends ([`PartSplit::Ends`]):
/// the classes of end pairs dealt to it in turn, each counted with both
/// ends fixed (on every thread) and weighted.
fn count_part_by_ends(
    problem: &Problem,
    part: Part,
    options: &Options,
) -> Result<TourNumber, FrontierError> {
    let graph = CellGraph::new(problem.board())?;
    let classes = end_classes(problem, &graph);
    let (mine, within) = classes_of_part(&classes, part);
    let here = mine.len();
    let symmetries = problem.symmetries();
    let (lines, _) = Lines::best(&graph, false);
    let at = OrderPositions::new(problem.board(), &lines);
    let mut total = TourNumber::ZERO;
    for (k, class) in mine.iter().enumerate() {
        let (start, end) = early_image(class, &symmetries, &at);
        let Ok(fixed) = Problem::new(problem.board().clone())
            .with_start(Some(start))
            .and_then(|p| p.with_end(Some(end)))
        else {
            continue;
        };
        let progress = options.progress.map(|outer| {
            move |step: SquareProgress| {
                outer(SquareProgress {
                    piece: Some(Piece::EndClass {
                        class: k + 1,
                        of: here,
                    }),
                    ..step
                });
            }
        });
        let one = Options {
            part: within,
            progress: progress
                .as_ref()
                .map(|p| p as &(dyn Fn(SquareProgress) + Sync)),
            ..*options
        };
        let paths = count(&fixed, &one)?;
        let tours = paths
            .checked_mul(u128::from(class.pairs * class.ways))
            .ok_or(FrontierError::Overflow)?;
        total = total.checked_add(tours).ok_or(FrontierError::Overflow)?;
    }
    Ok(total)
}

/// The classes of end pairs that `part` of a count split by its ends
/// counts, and how it splits them: with at most as many parts as classes,
/// the classes are dealt to the parts in turn and counted whole; with
/// more, each class is dealt to the parts in turn as well, and the parts
/// that share one split it by its states ([`PartSplit::States`]), so
/// that a class too large for one task's memory becomes several tasks.
fn classes_of_part(classes: &[EndClass], part: Part) -> (Vec<&EndClass>, Option<Part>) {
    let parts = part.of.max(1);
    if parts <= classes.len() || classes.is_empty() {
        let mine = classes
            .iter()
            .enumerate()
            .filter(|(i, _)| i % parts == part.index)
            .map(|(_, class)| class)
            .collect();
        return (mine, None);
    }
    let class = part.index % classes.len();
    let sharing = (class..parts).step_by(classes.len()).count();
    let within = (sharing > 1).then_some(Part {
        index: part.index / classes.len(),
        of: sharing,
        by: PartSplit::States,
        top_first: true,
    });
    (vec![&classes[class]], within)
}

/// The pair of `class` to count: its own pair when both its squares come
/// in the first half of `lines` (the order the counter meets in the middle
/// of), else the image under `symmetries` that has both there, if one
/// does, the one whose later square comes first. The images of a pair have
/// the same paths, and with both ends before the middle the meet cuts at
/// half the squares, where a class holds far fewer states than with one
/// end on each side (docs/benchmarks.md, "The 136 classes, one run after
/// another").
fn early_image(class: &EndClass, symmetries: &[Vec<usize>], at: &OrderPositions) -> (usize, usize) {
    let later = |(s, e): (usize, usize)| at.of(s).max(at.of(e));
    let own = (class.start, class.end);
    let half = at.half;
    if later(own) < half {
        return own;
    }
    symmetries
        .iter()
        .map(|map| (map[class.start], map[class.end]))
        .filter(|&pair| later(pair) < half)
        .min_by_key(|&pair| (later(pair), pair))
        .unwrap_or(own)
}

/// Where each square of a board comes in an order of its cells, made once
/// for every class of a part.
struct OrderPositions<'a> {
    board: &'a crate::model::board::Board,
    position: Vec<usize>,
    /// The first position of the order's second half.
    half: usize,
}

impl<'a> OrderPositions<'a> {
    fn new(board: &'a crate::model::board::Board, lines: &Lines) -> Self {
        let mut position = vec![usize::MAX; board.rows() * board.cols()];
        for (at, &cell) in lines.squares.iter().enumerate() {
            position[cell] = at;
        }
        OrderPositions {
            board,
            position,
            half: lines.squares.len() / 2,
        }
    }

    /// The position of square `square` in the order.
    fn of(&self, square: usize) -> usize {
        self.position[CellGraph::cell_of(self.board, square)]
    }
}

/// Directed open tours: twice the paths when no end is fixed, else the
/// paths with the fixed ends.
fn count_open(
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
fn count_closed(
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
fn count_undirected(
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
    let free_ends = if closed {
        0
    } else {
        2 - u8::try_from(ends.len()).unwrap_or(2)
    };
    let narrow = plan.width <= MAX_WIDTH_U64;
    let mode = Mode {
        closed,
        free_ends,
        ends_here: free_ends,
        used_shift: if narrow { 62 } else { 126 },
    };
    let undirected = if narrow {
        engine::run::<u64>(&plan, mode, options)
    } else if plan.width <= BASE12_SLOTS {
        engine::run::<Base12>(&plan, mode, options)
    } else {
        engine::run::<[u64; 2]>(&plan, mode, options)
    };
    undirected.map(TourNumber::from_wide)
}

/// What a frontier count is given besides its problem, in the counter's
/// own terms (no solver's request): threads, limits, the order of the
/// squares, where states past the budget go, the part, and who hears how
/// it goes.
pub(crate) struct Limits<'a> {
    /// Threads sharing each step's states (at least one).
    pub jobs: usize,
    /// The memory the state tables may take, in MiB.
    pub memory_budget_mib: u64,
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
    /// Hears after every square.
    pub progress: Option<&'a (dyn Fn(SquareProgress) + Sync)>,
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
    let budget_mib = limits.memory_budget_mib;
    let stop = crate::runtime::stop::Stop::new();
    let spill = SpillDir::new(&spill_parent(limits.spill_dir));
    stop.within(limits.timeout, limits.interrupt, || {
        let options = Options {
            jobs: limits.jobs.max(1),
            stop: Some(stop.flag()),
            memory_budget: Some(bytes_of_mib(budget_mib)),
            progress: limits.progress,
            order: limits.order,
            spill: Some(&spill),
            part: limits.part,
            keep: None,
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
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::board::{Board, Leaper};

    /// The problem of a `rows` x `cols` board without the cells `holes`,
    /// for the `(a, b)`-leaper, from its first square when `from_first`.
    fn problem(
        (rows, cols): (usize, usize),
        holes: &[usize],
        (a, b): (usize, usize),
        closed: bool,
        from_first: bool,
    ) -> Problem {
        let exists: Vec<bool> = (0..rows * cols)
            .map(|cell| !holes.contains(&cell))
            .collect();
        let board = Board::with_cells(rows, cols, &exists).with_leaper(Leaper::new(a, b).unwrap());
        Problem::new(board)
            .closed(closed)
            .with_start(from_first.then_some(0))
            .unwrap()
    }

    /// A board: its shape, holes and leaper.
    type Case = ((usize, usize), Vec<usize>, (usize, usize));

    /// For each leaper but the knight too, the boards of `rows` ranks and
    /// at most `cells` squares, with each of the hole sets `holes(rows,
    /// cols)` whose cells are on the board.
    fn holed_boards(
        rows: std::ops::RangeInclusive<usize>,
        cells: usize,
        holes: impl Fn(usize, usize) -> Vec<Vec<usize>>,
    ) -> Vec<Case> {
        let mut cases = Vec::new();
        for leaper in [(1, 2), (1, 3), (2, 3)] {
            for rows in rows.clone() {
                for cols in rows..=cells / rows {
                    for set in holes(rows, cols) {
                        if set.iter().all(|&cell| cell < rows * cols) {
                            cases.push(((rows, cols), set, leaper));
                        }
                    }
                }
            }
        }
        cases
    }

    /// Calls `check` with each problem of `cases` (open and closed, from
    /// any start and from the first square unless it is a hole), in each
    /// order of the squares, and words naming them.
    fn each_problem(cases: Vec<Case>, mut check: impl FnMut(&Problem, SquareOrder, &str)) {
        for (shape, holes, leaper) in cases {
            for (closed, from_first) in [(false, false), (false, true), (true, false), (true, true)]
            {
                if holes.contains(&0) && from_first {
                    continue;
                }
                let problem = problem(shape, &holes, leaper, closed, from_first);
                for order in [SquareOrder::Rows, SquareOrder::Snake, SquareOrder::Meet] {
                    let named = format!(
                        "{shape:?} holes {holes:?} leaper {leaper:?} closed {closed} from a1 {from_first} {order:?}"
                    );
                    check(&problem, order, &named);
                }
            }
        }
    }

    /// Fails if anything is left in `dir`.
    fn assert_empty(dir: &std::path::Path) {
        let left: Vec<_> = dir.read_dir().unwrap().collect();
        assert!(left.is_empty(), "{left:?} left behind");
    }

    /// Every board of the frontier oracle's test (all of at most 30
    /// squares, open and closed, from any start and from the first; those of
    /// at most 20 with holes and other leapers) counts the same with every
    /// table spilled to disk as soon as it holds more than a few states as
    /// it does in memory, in every order of the squares and on one and two
    /// threads; and no file is left behind.
    #[test]
    fn counts_spilled_to_disk_equal_counts_in_memory() {
        let parent = tempfile::tempdir().unwrap();
        let mut cases: Vec<Case> = (1..=30)
            .flat_map(|rows| (rows..=30 / rows).map(move |cols| ((rows, cols), vec![], (1, 2))))
            .collect();
        cases.extend(holed_boards(2..=20, 20, |rows, cols| {
            let cells = rows * cols;
            let sets = vec![vec![0], vec![cells - 1, cells / 2], vec![1, cols + 2]];
            if cells > 4 {
                sets
            } else {
                Vec::new()
            }
        }));
        let (mut compared, mut spilled, mut nonzero) = (0, 0, 0);
        each_problem(cases, |problem, order, named| {
            let jobs = 1 + compared % 2;
            let in_memory = Options {
                jobs,
                order,
                ..Options::default()
            };
            let want = count(problem, &in_memory).unwrap();
            let dir = SpillDir::eager(parent.path(), 3);
            let on_disk = Options {
                spill: Some(&dir),
                ..in_memory
            };
            let got = count(problem, &on_disk).unwrap();
            assert_eq!(got, want, "{named} on {jobs} threads");
            compared += 1;
            spilled += usize::from(dir.most() > 0);
            nonzero += usize::from(!want.is_zero());
            assert_eq!(dir.on_disk(), 0);
        });
        assert!(compared > 1900, "{compared}");
        assert!(
            spilled >= nonzero && nonzero >= 90,
            "{spilled} spilled, {nonzero} with tours"
        );
        assert_empty(parent.path());
    }

    /// The counts of the `of` parts of `problem` split `by`, with
    /// `options` otherwise, and their sum.
    fn parts_and_sum(
        problem: &Problem,
        options: &Options,
        of: usize,
        by: PartSplit,
    ) -> (Vec<TourNumber>, TourNumber) {
        let parts: Vec<TourNumber> = (0..of)
            .map(|index| {
                let part = Some(Part {
                    index,
                    of,
                    by,
                    top_first: false,
                });
                count(problem, &Options { part, ..*options }).unwrap()
            })
            .collect();
        let sum = parts
            .iter()
            .try_fold(TourNumber::ZERO, |sum, &part| sum.checked_add(part))
            .unwrap();
        (parts, sum)
    }

    /// A count in K parts adds up to the whole for K = 1, 2, 3 and 7, on
    /// boards with holes and without, open and closed, with a start and
    /// without, in every order (meeting in the middle splits by the
    /// degrees of the cut, forward by the states of the middle step), on
    /// one and two threads, and spilled; and the parts split the tours
    /// (for K > 1, at least two parts have some on most boards with tours).
    #[test]
    fn counts_in_parts_add_up_to_the_whole() {
        let parent = tempfile::tempdir().unwrap();
        let mut cases = vec![
            ((5, 6), vec![], (1, 2)),
            ((6, 6), vec![0, 35], (1, 2)),
            ((5, 7), vec![17], (1, 2)),
            ((6, 6), vec![14], (1, 2)),
            ((4, 7), vec![1, 9], (1, 2)),
            ((3, 10), vec![], (1, 2)),
            ((4, 6), vec![], (1, 2)),
            ((5, 5), vec![], (1, 2)),
        ];
        cases.extend(holed_boards(3..=5, 24, |rows, cols| {
            let cells = rows * cols;
            vec![vec![cells - 1, cells / 2], vec![1, cols + 2]]
        }));
        let (mut summed, mut splittable, mut split) = (0, 0, 0);
        each_problem(cases, |problem, order, named| {
            let whole_options = Options {
                jobs: 1 + summed % 2,
                order,
                ..Options::default()
            };
            let whole = count(problem, &whole_options).unwrap();
            for of in [1, 2, 3, 7] {
                // Every seventh sum spilled, every table on disk.
                let dir = SpillDir::eager(parent.path(), 3);
                let spill = (summed % 7 == 0).then_some(&dir);
                let options = Options {
                    spill,
                    ..whole_options
                };
                let (parts, sum) = parts_and_sum(problem, &options, of, PartSplit::States);
                assert_eq!(sum, whole, "{named} in {of} parts {parts:?}");
                summed += 1;
                if of > 1 && !whole.is_zero() {
                    splittable += 1;
                    split += usize::from(parts.iter().filter(|p| !p.is_zero()).count() > 1);
                }
            }
        });
        assert!(summed > 2000, "{summed}");
        assert!(
            splittable >= 100 && split * 4 >= splittable * 3,
            "{split} of {splittable} with tours split"
        );
        assert_empty(parent.path());
    }

    /// An open count split by its ends ([`PartSplit::Ends`]) in K parts
    /// adds up to the whole for K = 1, 2, 3 and 7, and, where there are
    /// at most 64 classes of ends, for one and two parts a class and one
    /// more (the classes then split by their states), on boards with holes and
    /// without, for each leaper, from any start and from a given one, in
    /// each order of the squares; the parts split the tours; and a closed
    /// count, which has no ends, is all in its first part.
    #[test]
    fn counts_split_by_their_ends_add_up_to_the_whole() {
        let mut cases = vec![
            ((5, 5), vec![], (1, 2)),
            ((5, 6), vec![], (1, 2)),
            ((6, 6), vec![0, 35], (1, 2)),
            ((4, 7), vec![1, 9], (1, 2)),
            ((3, 4), vec![], (1, 2)),
            ((1, 1), vec![], (1, 2)),
        ];
        cases.extend(holed_boards(3..=4, 16, |rows, cols| {
            vec![vec![], vec![rows * cols - 1]]
        }));
        let (mut summed, mut splittable, mut split) = (0, 0, 0);
        let (mut class_shared, mut class_split) = (0, 0);
        each_problem(cases, |problem, order, named| {
            let whole_options = Options {
                jobs: 1 + summed % 2,
                order,
                ..Options::default()
            };
            let whole = count(problem, &whole_options).unwrap();
            // Past as many parts as classes, the parts that share a class
            // split it by its states.
            let classes = CellGraph::new(problem.board())
                .map_or(0, |graph| end_classes(problem, &graph).len());
            let shared = (classes <= 64).then_some([classes + 1, 2 * classes + 1]);
            let few = [1, 2, 3, 7].map(|of| (of, false));
            let many = shared.into_iter().flatten().map(|of| (of, true));
            for (of, past_classes) in few.into_iter().chain(many) {
                let (parts, sum) = parts_and_sum(problem, &whole_options, of, PartSplit::Ends);
                assert_eq!(sum, whole, "{named} in {of} parts by ends {parts:?}");
                summed += 1;
                if past_classes {
                    // A class with tours, shared by parts 1 and 1 + classes.
                    let first = [parts[0], parts[classes % of]];
                    if !problem.is_closed() && first.iter().any(|p| !p.is_zero()) {
                        class_shared += 1;
                        class_split +=
                            usize::from(!parts[0].is_zero() && !parts[classes].is_zero());
                    }
                } else if of > 1 && !whole.is_zero() && !problem.is_closed() {
                    splittable += 1;
                    split += usize::from(parts.iter().filter(|p| !p.is_zero()).count() > 1);
                } else if problem.is_closed() {
                    assert!(parts[1..].iter().all(|p| p.is_zero()), "{named}");
                }
            }
        });
        assert!(summed > 500, "{summed}");
        assert!(
            splittable >= 50 && split * 3 >= splittable * 2,
            "{split} of {splittable} with tours split"
        );
        assert!(
            class_shared >= 30 && class_split * 2 >= class_shared,
            "{class_split} of {class_shared} first classes split by their states"
        );
    }

    /// The end pairs of 8x8 fall into the 136 classes Chernov and
    /// Stertenbrink counted (the 32 x 32 pairs of opposite colours under
    /// the 8 symmetries), standing for every such pair once; from a corner,
    /// the other end's 32 squares of the other colour, none of them on the
    /// corner's diagonal, fall into 16 pairs under the diagonal mirror.
    #[test]
    fn the_end_pairs_of_8x8_make_136_classes() {
        let board = Board::new(8, 8).unwrap();
        let graph = CellGraph::new(&board).unwrap();
        let open = Problem::new(board.clone());
        let classes = end_classes(&open, &graph);
        assert_eq!(classes.len(), 136);
        assert_eq!(classes.iter().map(|c| c.pairs).sum::<u64>(), 32 * 32);
        assert!(classes.iter().all(|c| c.ways == 2));
        let corner = open.with_start(Some(0)).unwrap();
        let classes = end_classes(&corner, &graph);
        assert_eq!(classes.len(), 16);
        assert_eq!(classes.iter().map(|c| c.pairs).sum::<u64>(), 32);
        assert!(classes.iter().all(|c| c.ways == 1 && c.start == 0));
    }

    /// Each class of 8x8 end pairs is counted by an image of its own pair
    /// under the board's symmetries, with both ends before the middle of
    /// the counter's order whenever an image has them there: 104 of the
    /// 136 classes (the other 32 have one end in each half however the
    /// board is turned); from a given start, that start stays an end.
    #[test]
    fn each_class_of_ends_is_counted_by_an_image_with_both_ends_early_where_one_has() {
        let board = Board::new(8, 8).unwrap();
        let graph = CellGraph::new(&board).unwrap();
        let (lines, _) = Lines::best(&graph, false);
        let at = |sq: usize| {
            let cell = CellGraph::cell_of(&board, sq);
            lines.squares.iter().position(|&c| c == cell).unwrap()
        };
        let early = |(s, e): (usize, usize)| at(s) < 32 && at(e) < 32;
        for start in [None, Some(0)] {
            let problem = Problem::new(board.clone()).with_start(start).unwrap();
            let symmetries = problem.symmetries();
            let images = |class: &EndClass| -> Vec<(usize, usize)> {
                symmetries
                    .iter()
                    .flat_map(|map| {
                        [
                            (map[class.start], map[class.end]),
                            (map[class.end], map[class.start]),
                        ]
                    })
                    .collect()
            };
            let mut counted_early = 0;
            for class in end_classes(&problem, &graph) {
                let chosen = early_image(&class, &symmetries, &OrderPositions::new(&board, &lines));
                assert!(images(&class).contains(&chosen), "{class:?} as {chosen:?}");
                assert_eq!(
                    early(chosen),
                    images(&class).into_iter().any(early),
                    "{class:?}"
                );
                if let Some(s) = start {
                    assert!(chosen.0 == s || chosen.1 == s, "{class:?} as {chosen:?}");
                }
                counted_early += usize::from(early(chosen));
            }
            if start.is_none() {
                assert_eq!(counted_early, 104);
            }
        }
    }

    /// Past the oracle's boards, where the tables hold thousands of states:
    /// spilled whenever they pass a budget of 24 KiB on one thread (96 KiB
    /// on two, whose tables take turns), the buckets too large to merge
    /// within it split again, counts equal those in memory.
    #[test]
    fn counts_spilled_past_a_small_budget_equal_counts_in_memory() {
        let parent = tempfile::tempdir().unwrap();
        for (shape, closed) in [
            ((5, 6), false),
            ((6, 6), true),
            ((4, 8), false),
            ((6, 7), true),
        ] {
            let problem = problem(shape, &[], (1, 2), closed, false);
            for (order, jobs, budget) in [(SquareOrder::Rows, 1, 24), (SquareOrder::Snake, 2, 96)] {
                let in_memory = Options {
                    jobs,
                    order,
                    ..Options::default()
                };
                let want = count(&problem, &in_memory).unwrap();
                let dir = SpillDir::new(parent.path());
                let on_disk = Options {
                    spill: Some(&dir),
                    memory_budget: Some(budget << 10),
                    ..in_memory
                };
                assert_eq!(
                    count(&problem, &on_disk),
                    Ok(want),
                    "{shape:?} {closed} {order:?}"
                );
                assert!(
                    dir.most() > budget << 10,
                    "{shape:?}: {} bytes on disk",
                    dir.most()
                );
                // Without a directory, the same budget is refused.
                let refused = count(
                    &problem,
                    &Options {
                        spill: None,
                        ..on_disk
                    },
                );
                assert!(
                    matches!(refused, Err(FrontierError::OverMemory { .. })),
                    "{refused:?}"
                );
            }
        }
        assert_empty(parent.path());
    }
}
