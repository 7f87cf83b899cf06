//! An open count split by the pairs of squares its paths end on (after
//! Chernov and Stertenbrink, 2014): the classes of end pairs under the
//! board's symmetries, dealt to the parts, each counted with both ends
//! fixed and weighted.

use super::count;
use super::options::{Options, Part, PartSplit, Piece, SquareProgress};
use super::saved::piece;
use super::schedule::{CellGraph, Lines};
use super::FrontierError;
use crate::count::number::TourNumber;
use crate::model::problem::Problem;

/// A class of the pairs of squares an open tour may end on: one pair of
/// it, how many pairs it stands for, and how many directed tours each
/// path between a pair makes (2 with no end fixed, the path read either
/// way; 1 with one end fixed, where the tour starts or ends there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct EndClass {
    /// One square of the pair.
    pub(super) start: usize,
    /// The other.
    pub(super) end: usize,
    /// The pairs the class stands for.
    pub(super) pairs: u64,
    /// The directed tours each path between a pair makes.
    pub(super) ways: u64,
}

/// The classes of the pairs of squares that an open tour of `problem` may
/// end on, in a fixed order: unordered pairs of distinct squares (on one
/// square, that square twice; a given start or end is one of them) up to
/// the symmetries that keep the given ends, less those that no Hamiltonian path joins by a theorem: on a
/// bipartite move graph a path alternates colour classes, so its ends are
/// one in each when the classes are equal, both in the larger when it has
/// one square more, and there is none when they differ by more.
pub(super) fn end_classes(problem: &Problem, graph: &CellGraph) -> Vec<EndClass> {
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

/// The number of classes of end pairs an open count of `problem` split by
/// its ends counts one by one, `None` where the board has no move graph.
pub(crate) fn end_classes_of(problem: &Problem) -> Option<usize> {
    let graph = CellGraph::new(problem.board()).ok()?;
    Some(end_classes(problem, &graph).len())
}

/// One part of an open count split by its ends ([`PartSplit::Ends`]):
/// the classes of end pairs dealt to it in turn, each counted with both
/// ends fixed (on every thread) and weighted.
pub(super) fn count_part_by_ends(
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
        // Its ends fixed, a class is counted in one piece.
        let one = Options {
            part: within,
            by_ends: false,
            progress: progress
                .as_ref()
                .map(|p| p as &(dyn Fn(SquareProgress) + Sync)),
            ..*options
        };
        let label = format!("ends {} {}", class.start, class.end);
        let paths = piece(&one, &label, |options| count(&fixed, options))?;
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
/// end on each side (docs/notebook.md, "The 136 classes, one run after
/// another").
pub(super) fn early_image(
    class: &EndClass,
    symmetries: &[Vec<usize>],
    at: &OrderPositions,
) -> (usize, usize) {
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
pub(super) struct OrderPositions<'a> {
    board: &'a crate::model::board::Board,
    position: Vec<usize>,
    /// The first position of the order's second half.
    half: usize,
}

impl<'a> OrderPositions<'a> {
    pub(super) fn new(board: &'a crate::model::board::Board, lines: &Lines) -> Self {
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
