//! Warnsdorff's rule: a greedy walk that always moves to the square with
//! the fewest onward moves.
//!
//! H. C. von Warnsdorf, *Des Rösselsprunges einfachste und allgemeinste
//! Lösung* (1823): move to the square from which the fewest unvisited
//! squares are a move away. It runs in linear time and finds tours of most
//! boards at the first try, but it can walk into a dead end, so it proves
//! nothing when it fails: it gives up ([`SearchError::GaveUp`]) instead of saying
//! that no tour exists.
//!
//! The rule leaves ties. [`TieBreak`] names the ways to break them that are
//! implemented here. The default, [`TieBreak::LookaheadThenCentre`], is seed
//! 004's rule (the smallest onward count one step further) and then the
//! square farthest from the board's centre; it measured best (docs/search.md,
//! "Warnsdorff's rule"; `cargo run --release --example tie_breaks`). The ties left
//! after that go to the leaper's fixed move order, or with a seed to chance.
//!
//! Beyond the plain rule:
//! - a candidate with no onward move is a dead end and is taken last
//!   (unless it is the last square), as seed 004's weighting does;
//! - a fixed end is kept for the last move and does not count as an onward
//!   move before then; the end's last way in is taken last;
//! - an open tour with only its end fixed is walked from the end and
//!   reversed;
//! - a closed tour must end on a neighbour of its start: once only one of
//!   them is unvisited it is kept for the last move like a fixed end. With
//!   no start given the walk starts in the middle of the board (the centre
//!   rule spirals inwards, so it finishes there), and the tour is rotated to
//!   start where the problem wants;
//! - when the first attempt fails, more attempts break the remaining ties at
//!   random (and choose a random start where none is given, a central one
//!   for closed tours), up to `default_attempts`; every other one is
//!   wilder: it starts anywhere and breaks ties in the onward count by chance
//!   alone, which small boards need (5x6, 3x10 and 5x8 closed are found by
//!   these only).

use std::time::Duration;

use super::{forced_start_colour, verified};
use crate::graph::MoveGraph;
use crate::model::board::Board;
use crate::model::problem::Problem;
use crate::model::unsupported::Unsupported;
use crate::runtime::deadline::Deadline;
use crate::search::SearchError;
use crate::tour::Tour;

/// How ties between squares with equally few onward moves are broken,
/// before the last resort (the leaper's fixed move order, or chance with a
/// seed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// None: the first square in the leaper's fixed move order. Squirrel and
    /// Cull (1996, "A Warnsdorff-rule algorithm for knight's tours on square
    /// chessboards") break every tie by a fixed move order, switching between
    /// orders tuned to the board size at set squares; this is one fixed order
    /// for every board.
    MoveOrder,
    /// Seed 004's rule: the square whose own onward squares include the one
    /// with the fewest onward moves (Warnsdorff's rule applied one step
    /// further, taking the minimum).
    Lookahead,
    /// Pohl (1967, "A method for finding Hamilton paths and knight's tours",
    /// CACM 10(7)): apply the rule a second time, summing: the square whose
    /// onward squares have the fewest onward moves in all.
    Pohl,
    /// The square farthest from the board's centre (a geometric rule of
    /// thumb: keep to the edge while the middle stays open).
    FarthestFromCentre,
    /// Seed 004's rule, then the square farthest from the centre: the
    /// default, which measured best (docs/search.md, "Warnsdorff's rule").
    #[default]
    LookaheadThenCentre,
}

impl TieBreak {
    /// Every rule, for comparisons.
    pub const ALL: [TieBreak; 5] = [
        TieBreak::MoveOrder,
        TieBreak::Lookahead,
        TieBreak::Pohl,
        TieBreak::FarthestFromCentre,
        TieBreak::LookaheadThenCentre,
    ];

    /// The rule's name: `move-order`, `lookahead`, `pohl`, `farthest-from-centre`.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::MoveOrder => "move-order",
            TieBreak::Lookahead => "lookahead",
            TieBreak::Pohl => "pohl",
            TieBreak::FarthestFromCentre => "farthest-from-centre",
            TieBreak::LookaheadThenCentre => "lookahead-then-centre",
        }
    }
}

/// How Warnsdorff's rule runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Warnsdorff {
    /// How ties are broken.
    pub tie_break: TieBreak,
    /// Break the ties the rule leaves at random, seeded with this, in every
    /// attempt. Without a seed the first attempt breaks them by the fixed
    /// move order and later ones at random from seed 0, so the same problem
    /// always gives the same tour. Either way every second attempt is a wild
    /// one (see the [module](self) docs).
    pub seed: Option<u64>,
    /// How many attempts to make before giving up; `None` for
    /// `default_attempts`.
    pub attempts: Option<u32>,
}

/// The most attempts Warnsdorff's rule makes.
pub const MAX_ATTEMPTS: u32 = 100;

/// The squares all attempts may visit together before the rule gives up:
/// enough for [`MAX_ATTEMPTS`] on boards up to 200,000 squares.
pub const MOVE_BUDGET: usize = 20_000_000;

/// How many attempts Warnsdorff's rule makes on a board of `squares`
/// squares before it gives up: [`MAX_ATTEMPTS`], or fewer where they would
/// visit more than [`MOVE_BUDGET`] squares in all (20 on 1000x1000), but
/// at least one.
pub(crate) fn default_attempts(squares: usize) -> u32 {
    (MOVE_BUDGET / squares.max(1)).clamp(1, MAX_ATTEMPTS as usize) as u32
}

/// The name [`SearchError::GaveUp`] and refusals give the method.
pub const NAME: &str = "Warnsdorff's rule";

/// Finds a tour of `problem` by Warnsdorff's rule, or gives up
/// ([`SearchError::GaveUp`]) after the attempts allowed; gives up with
/// [`RunError::Timeout`](crate::runtime::RunError::Timeout) when `timeout` runs out first. Clues are refused
/// ([`Unsupported::CluesByWarnsdorff`]).
///
/// Each attempt takes time linear in the number of squares and memory of a
/// few words per square (the move graph, 4 bytes a move, and the walk's state). The tour is verified before it is returned.
pub fn warnsdorff(
    problem: &Problem,
    options: &Warnsdorff,
    timeout: Option<Duration>,
) -> Result<Tour, SearchError> {
    warnsdorff_until(problem, options, &Deadline::new(timeout))
}

/// [`warnsdorff`] within `clock`: [`RunError::Timeout`](crate::runtime::RunError::Timeout) when its time runs
/// out, [`RunError::Interrupted`](crate::runtime::RunError::Interrupted) when its interrupt is raised.
pub fn warnsdorff_until(
    problem: &Problem,
    options: &Warnsdorff,
    clock: &Deadline,
) -> Result<Tour, SearchError> {
    if !problem.clues().is_empty() {
        return Err(SearchError::Unsupported(Unsupported::CluesByWarnsdorff));
    }
    let board = problem.board();
    let attempts = options
        .attempts
        .unwrap_or_else(|| default_attempts(board.squares()));
    let mut walker = Walker::new(board);
    let plan = WalkEnds::of(problem);
    let mut rng = fastrand::Rng::with_seed(options.seed.unwrap_or(0));
    for attempt in 0..attempts {
        if attempt > 0 {
            clock.check()?;
        }
        let random = options.seed.is_some() || attempt > 0;
        // Every other random attempt is wilder: a start anywhere, and ties
        // in the onward count broken by chance alone.
        let wild = random && attempt % 2 == 1;
        let first = match plan.first {
            Some(first) => first,
            None => walker.choose_start(&plan, random.then_some(&mut rng), wild),
        };
        let rng = random.then_some(&mut rng);
        let tie_break = if wild {
            TieBreak::MoveOrder
        } else {
            options.tie_break
        };
        if walker.walk(first, &plan, tie_break, rng, clock)? {
            let squares = plan.arrange(std::mem::take(&mut walker.path), problem);
            drop(walker);
            return verified(problem, squares);
        }
    }
    Err(SearchError::GaveUp {
        method: NAME,
        attempts,
    })
}

/// What each attempt walks: from where, to where, closing or not.
struct WalkEnds {
    /// The first square of the walk, when the problem fixes it.
    first: Option<usize>,
    /// A square kept for the last move.
    last: Option<usize>,
    /// The walk must end a move from its first square.
    closing: bool,
    /// The walk runs from the problem's end and is reversed afterwards.
    reversed: bool,
    /// Where the finished closed tour must start, or end.
    rotate_to_start: Option<usize>,
    rotate_to_end: Option<usize>,
    /// The colour a free start must have.
    start_colour: Option<bool>,
}

impl WalkEnds {
    fn of(problem: &Problem) -> WalkEnds {
        let closed = problem.is_closed();
        let (start, end) = (problem.start(), problem.end());
        let start_colour = forced_start_colour(problem.board(), closed);
        match (closed, start, end) {
            // Open with only the end fixed: walk from the end, then reverse.
            (false, None, Some(end)) => WalkEnds {
                first: Some(end),
                last: None,
                closing: false,
                reversed: true,
                rotate_to_start: None,
                rotate_to_end: None,
                start_colour,
            },
            (false, start, end) => WalkEnds {
                first: start,
                last: end,
                closing: false,
                reversed: false,
                rotate_to_start: None,
                rotate_to_end: None,
                start_colour,
            },
            // Closed with a start: the end, if any, is the last move.
            (true, Some(start), end) => WalkEnds {
                first: Some(start),
                last: end,
                closing: true,
                reversed: false,
                rotate_to_start: None,
                rotate_to_end: None,
                start_colour: None,
            },
            // Closed without a start: any cycle, rotated to end on the end,
            // or to start on the first square.
            (true, None, end) => WalkEnds {
                first: None,
                last: None,
                closing: true,
                reversed: false,
                rotate_to_start: problem.effective_start(),
                rotate_to_end: end,
                start_colour: None,
            },
        }
    }

    /// The finished walk as the problem's tour.
    fn arrange(&self, mut squares: Vec<usize>, problem: &Problem) -> Vec<usize> {
        if self.reversed {
            squares.reverse();
        }
        let position = |squares: &[usize], square| {
            squares
                .iter()
                .position(|&s| s == square)
                .expect("a tour visits every square")
        };
        let len = squares.len();
        if let Some(end) = self.rotate_to_end {
            let at = position(&squares, end);
            squares.rotate_left((at + 1) % len);
        } else if let Some(start) = self.rotate_to_start {
            let at = position(&squares, start);
            squares.rotate_left(at);
        }
        debug_assert_eq!(squares.len(), problem.board().squares());
        squares
    }
}

/// The state of one walk, reused across attempts.
struct Walker<'a> {
    board: &'a Board,
    moves: MoveGraph,
    /// Each square's number of neighbours.
    degree: Vec<u8>,
    /// Each square's number of unvisited neighbours.
    free: Vec<u8>,
    visited: Vec<bool>,
    path: Vec<usize>,
}

/// A candidate's rank: smaller is better.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    onward: u32,
    tie: (i64, i64),
}

/// Added to the onward count of a square that must be taken last.
const LAST_RESORT: u32 = 64;

impl<'a> Walker<'a> {
    fn new(board: &'a Board) -> Walker<'a> {
        let moves = MoveGraph::new(board);
        let n = board.squares();
        let degree: Vec<u8> = (0..n).map(|s| moves.degree(s) as u8).collect();
        Walker {
            board,
            moves,
            free: degree.clone(),
            degree,
            visited: vec![false; n],
            path: Vec::with_capacity(n),
        }
    }

    /// A start for an open walk when none is given: of the colour the
    /// counts force, the first square with the fewest moves; at random with
    /// `rng`.
    fn choose_start(
        &self,
        plan: &WalkEnds,
        rng: Option<&mut fastrand::Rng>,
        anywhere: bool,
    ) -> usize {
        let n = self.board.squares();
        if plan.closing {
            // The rule spirals inwards, so a closed walk has its best chance
            // to end next to its start when it starts in the middle.
            let middle = (0..n).map(|s| self.centre(s)).max().unwrap_or(0);
            let central: Vec<usize> = (0..n).filter(|&s| self.centre(s) == middle).collect();
            let Some(rng) = rng else {
                return central[0];
            };
            // Half the random attempts start anywhere: on small boards
            // the middle is no better than elsewhere.
            if anywhere {
                return rng.usize(..n);
            }
            return central[rng.usize(..central.len())];
        }
        let allowed = |s: &usize| plan.start_colour.is_none_or(|c| self.board.colour(*s) == c);
        if let Some(rng) = rng {
            let count = (0..n).filter(allowed).count();
            let pick = rng.usize(..count.max(1));
            return (0..n).filter(allowed).nth(pick).unwrap_or(0);
        }
        (0..n)
            .filter(allowed)
            .min_by_key(|&s| self.degree[s])
            .unwrap_or(0)
    }

    fn visit(&mut self, square: usize) {
        self.visited[square] = true;
        self.path.push(square);
        for &next in self.moves.neighbours(square) {
            self.free[next as usize] -= 1;
        }
    }

    /// One greedy walk from `first`; whether it made the tour the plan asks for.
    fn walk(
        &mut self,
        first: usize,
        plan: &WalkEnds,
        tie_break: TieBreak,
        mut rng: Option<&mut fastrand::Rng>,
        clock: &Deadline,
    ) -> Result<bool, SearchError> {
        let n = self.board.squares();
        self.free.copy_from_slice(&self.degree);
        self.visited.fill(false);
        self.path.clear();
        if plan.last == Some(first) && n > 1 {
            return Ok(false);
        }
        self.visit(first);
        for step in 1..n {
            if step % (1 << 16) == 0 {
                clock.check()?;
            }
            let head = self.path[step - 1];
            let last = plan.last.or_else(|| self.closing_square(first, plan));
            let mut best: Option<(Key, usize)> = None;
            let mut ties = 0;
            for &candidate in self.moves.neighbours(head) {
                let candidate = candidate as usize;
                if self.visited[candidate] || (last == Some(candidate) && step < n - 1) {
                    continue;
                }
                let onward = self.onward(candidate, step, last);
                if best.is_some_and(|(key, _)| onward > key.onward) {
                    continue;
                }
                let key = Key {
                    onward,
                    tie: self.tie(candidate, tie_break),
                };
                match best {
                    Some((best_key, _)) if key > best_key => {}
                    Some((best_key, _)) if key == best_key => {
                        ties += 1;
                        if let Some(rng) = rng.as_deref_mut() {
                            if rng.usize(..ties) == 0 {
                                best = Some((key, candidate));
                            }
                        }
                    }
                    _ => {
                        best = Some((key, candidate));
                        ties = 1;
                    }
                }
            }
            let Some((_, next)) = best else {
                return Ok(false);
            };
            self.visit(next);
        }
        let last = self.path[n - 1];
        Ok(!plan.closing || (n > 1 && self.board.is_move(last, first)))
    }

    /// For a closed walk, the start's one unvisited neighbour once only one
    /// is left: it must be the last square.
    fn closing_square(&self, first: usize, plan: &WalkEnds) -> Option<usize> {
        if !plan.closing || self.free[first] != 1 {
            return None;
        }
        self.moves
            .neighbours(first)
            .iter()
            .map(|&s| s as usize)
            .find(|&s| !self.visited[s])
    }

    /// Warnsdorff's count for `candidate` as the square of move `step`: its
    /// unvisited neighbours, less the last square while it is not due; dead
    /// ends and the last square's last way in come last.
    fn onward(&self, candidate: usize, step: usize, last: Option<usize>) -> u32 {
        let n = self.board.squares();
        let mut onward = u32::from(self.free[candidate]);
        if let Some(last) = last.filter(|&last| !self.visited[last]) {
            if self.board.is_move(candidate, last) {
                onward -= 1;
                if self.free[last] == 1 && step + 2 < n {
                    onward += LAST_RESORT;
                }
            }
        }
        if onward == 0 && step + 1 < n {
            onward += LAST_RESORT;
        }
        onward
    }

    /// The tie-break value of `candidate`: smaller is better.
    fn tie(&self, candidate: usize, tie_break: TieBreak) -> (i64, i64) {
        match tie_break {
            TieBreak::MoveOrder => (0, 0),
            TieBreak::Lookahead => (self.lookahead(candidate, false), 0),
            TieBreak::Pohl => (self.lookahead(candidate, true), 0),
            TieBreak::FarthestFromCentre => (self.centre(candidate), 0),
            TieBreak::LookaheadThenCentre => {
                (self.lookahead(candidate, false), self.centre(candidate))
            }
        }
    }

    /// The onward counts of the candidate's unvisited neighbours once the
    /// candidate is visited: their minimum, or with `sum` their total.
    fn lookahead(&self, candidate: usize, sum: bool) -> i64 {
        let mut total = 0;
        let mut least = i64::from(u8::MAX);
        for &w in self.moves.neighbours(candidate) {
            let w = w as usize;
            if !self.visited[w] {
                let count = i64::from(self.free[w]) - 1;
                total += count;
                least = least.min(count);
            }
        }
        if sum {
            total
        } else {
            least
        }
    }

    /// Minus the squared distance from the board's centre (doubled, to stay
    /// whole): smaller is farther out.
    fn centre(&self, candidate: usize) -> i64 {
        let square = self.board.square(candidate);
        let df = (2 * square.file) as i64 - (self.board.cols() as i64 - 1);
        let dr = (2 * square.rank) as i64 - (self.board.rows() as i64 - 1);
        -(df * df + dr * dr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tour_of(problem: &Problem) -> Result<Tour, SearchError> {
        warnsdorff(problem, &Warnsdorff::default(), None)
    }

    #[test]
    fn tours_the_chessboard_from_a_corner_and_closes_where_asked() {
        let board = Board::new(8, 8).unwrap();
        let open = Problem::new(board.clone()).with_start(Some(0)).unwrap();
        assert_eq!(tour_of(&open).unwrap().squares.len(), 64);
        let closed = Problem::new(board).closed(true);
        let tour = tour_of(&closed).unwrap();
        assert_eq!(tour.squares[0], 0, "rotated to start on a1");
    }

    #[test]
    fn gives_up_rather_than_claiming_no_tour() {
        let problem = Problem::new(Board::new(3, 3).unwrap());
        let error = tour_of(&problem).unwrap_err();
        assert!(
            matches!(
                error,
                SearchError::GaveUp {
                    attempts: MAX_ATTEMPTS,
                    ..
                }
            ),
            "{error}"
        );
        assert!(error.to_string().contains("does not mean that none exists"));
    }

    #[test]
    fn attempts_shrink_on_big_boards() {
        assert_eq!(default_attempts(64), MAX_ATTEMPTS);
        assert_eq!(default_attempts(1_000_000), 20);
        assert_eq!(default_attempts(usize::MAX), 1);
    }
}
