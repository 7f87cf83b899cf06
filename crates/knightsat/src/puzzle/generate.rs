//! Making a puzzle: a random tour, every square a clue, then each clue
//! dropped that the others do without, until the tour is the only solution
//! of the clues left and none can go.

use crate::cnf::Lit;
use crate::encoding::{EncodingConfig, TimeIndexed};
use crate::error::{Error, RunError};
use crate::gate::refute;
use crate::graph::MoveGraph;
use crate::model::board::Board;
use crate::model::problem::{Clue, Problem};
use crate::runtime::deadline::Deadline;
use crate::runtime::stop::Stop;
use crate::sat::Setup;
use crate::solve::{solve, Outcome, Request};
use crate::tour::Tour;

/// A generated puzzle and the tour it came from, its only solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: a problem whose only anchors are its clues.
    pub puzzle: Problem,
    /// Its one solution.
    pub solution: Tour,
    /// The clues neither dropped nor proved needed because the time limit
    /// ran out first: with none, no clue of the puzzle can go.
    pub untried: usize,
}

/// Whether `solution` is still the only solution of `puzzle`, which is a
/// puzzle whose only solution it was before the clues `dropped` were taken
/// from it. Any other solution then breaks one of `dropped` (one that kept
/// them would meet every clue of the unique puzzle), so the search is for
/// a tour meeting `puzzle`'s clues with some dropped step off its square:
/// one clause in the time-indexed encoding, stronger than blocking the
/// whole solution, which the successor encoding does instead.
fn only_solution_without(
    puzzle: &Problem,
    dropped: &[Clue],
    solution: &Tour,
    request: &Request,
) -> Result<bool, Error> {
    let config = request.config.keeping_every_tour();
    let stop = Stop::new();
    stop.within(request.timeout, &request.interrupt, || {
        let setup = Setup {
            stoppable: request.may_stop(),
            ..Setup::new(&stop)
        };
        let mut session = match config {
            EncodingConfig::TimeIndexed(config) => {
                let encoding = TimeIndexed::new(puzzle, config)?;
                let off_a_clue: Vec<Lit> = dropped
                    .iter()
                    .map(|clue| encoding.vars().x(clue.step, clue.square).negative())
                    .collect();
                let mut session = request.session(Box::new(encoding), setup)?;
                session.require_one_of(&off_a_clue);
                session
            }
            EncodingConfig::Successor(_) => {
                let mut session = request.session(config.prepare(puzzle)?, setup)?;
                session.block(&solution.squares);
                session
            }
        };
        Ok(session.next_tour()?.is_none())
    })
}

/// The board and closedness a puzzle for `problem` is made with: its
/// board, holes and leaper, and whether it is closed, are kept; a start,
/// an end or clues are refused ([`Error::PuzzleRule`]), as the command's
/// `puzzle` takes none of them: the puzzle's own clues fix the tour.
pub fn puzzle_rules(problem: &Problem) -> Result<(&Board, bool), Error> {
    if problem.start().is_some() {
        return Err(Error::PuzzleRule("a start"));
    }
    if problem.end().is_some() {
        return Err(Error::PuzzleRule("an end"));
    }
    if !problem.clues().is_empty() {
        return Err(Error::PuzzleRule("clues"));
    }
    Ok((problem.board(), problem.is_closed()))
}

/// The seed a puzzle is made from: `seed` when one is given, else a random
/// one, which the caller can show so that the same puzzle can be made
/// again.
pub fn seed_or_random(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| fastrand::u64(..))
}

/// Makes a puzzle on `board` with exactly one solution, or `None` when the
/// board has no tour. The same seed gives the same puzzle.
///
/// A tour is found from a random start through a random opening walk
/// (shortened until a tour extends it); every square is a clue at first;
/// then, in a random order that keeps the clues left spread along the tour
/// (see `spread_order`), each clue is dropped if the rest still have only
/// that tour as solution (SAT proves that no tour meets the rest with that
/// step elsewhere, see `only_solution_without`; runs of clues are tried
/// in one search, see `Batches`). What is left is minimal: no clue can
/// go. Every search is SAT with `request`'s
/// encoding and built-in solver. `on_step(done, total)` reports progress.
///
/// `request.timeout` limits the whole generation. When it runs out while
/// clues are being dropped, the puzzle so far is returned: it still has
/// one solution (every clue dropped was proved unneeded), but the clues
/// not yet tried, counted in [`Generated::untried`], may not be needed,
/// and which clues were tried in time can differ from run to run. When it
/// runs out before a tour is found, the error is [`RunError::Timeout`].
pub fn generate(
    board: &Board,
    closed: bool,
    seed: u64,
    request: &Request,
    mut on_step: impl FnMut(usize, usize),
) -> Result<Option<Generated>, Error> {
    if refute(&Problem::new(board.clone()).closed(closed)).is_some() {
        return Ok(None);
    }
    let deadline = Deadline::new(request.timeout);
    let mut rng = fastrand::Rng::with_seed(seed);
    let Some(solution) = random_tour(board, closed, request, &deadline, &mut rng)? else {
        return Ok(None);
    };
    let n = board.squares();
    let mut clues = clues_along(&solution.squares);
    let order = spread_order(n, &mut rng);
    let with_clues = |clues: &[Clue]| {
        Problem::new(board.clone())
            .closed(closed)
            .with_clues(clues.iter().copied())
    };
    let mut batches = Batches::default();
    let mut done = 0;
    let mut untried = 0;
    while done < n {
        on_step(done, n);
        let batch = &order[done..(done + batches.size(clues.len())).min(n)];
        let dropped: Vec<Clue> = batch
            .iter()
            .map(|&step| Clue {
                step,
                square: solution.squares[step],
            })
            .collect();
        let fewer: Vec<Clue> = clues
            .iter()
            .copied()
            .filter(|clue| !batch.contains(&clue.step))
            .collect();
        let unique = request.with_time_left(&deadline).and_then(|request| {
            only_solution_without(&with_clues(&fewer)?, &dropped, &solution, &request)
        });
        let dropped_all = match unique {
            Ok(true) => {
                clues = fewer;
                done += batch.len();
                true
            }
            // A single clue is needed; of a batch, some clue is: try
            // them one at a time.
            Ok(false) => {
                done += usize::from(batch.len() == 1);
                false
            }
            Err(Error::Run(RunError::Timeout { .. })) => {
                untried = n - done;
                break;
            }
            Err(error) => return Err(error),
        };
        batches.record(batch.len(), dropped_all);
    }
    let puzzle = with_clues(&clues)?;
    on_step(n, n);
    Ok(Some(Generated {
        puzzle,
        solution,
        untried,
    }))
}

/// The order in which the clues of a tour of `squares` squares are tried:
/// random, but the odd steps first, then the steps 2 mod 4, then 4 mod 8,
/// and so on, step 0 last. The clues left then stay spread along the tour,
/// with no long run of moves between two of them, which is what makes the
/// searches near the end cheap: each looks for another tour meeting every
/// clue left but one, a puzzle as hard as its longest runs. Measured on
/// 20x20 seed 1 (docs/benchmarks.md, "Clues tried in a spread order"):
/// 95 s and 77 clues against 764 s and 91 clues for a plain random order.
fn spread_order(squares: usize, rng: &mut fastrand::Rng) -> Vec<usize> {
    let mut order: Vec<usize> = (0..squares).collect();
    rng.shuffle(&mut order);
    // Stable: the order within a level stays random.
    order.sort_by_key(|&step| spread_level(step));
    order
}

/// The level of `step` in [`spread_order`]: the power of two it is an odd
/// multiple of, step 0 above every other.
fn spread_level(step: usize) -> u32 {
    if step == 0 {
        u32::MAX
    } else {
        step.trailing_zeros()
    }
}

/// How many clues to try to drop at once. Dropping a batch takes one
/// search where one at a time takes one per clue, and gives the same
/// puzzle: if the clues left without the whole batch have one solution, so
/// do all the sets in between, which dropping one at a time would have
/// kept. A failed batch proves nothing about any single clue of it, so its
/// clues are then tried one at a time. Batches start after a run of clues
/// dropped one after another and double while they go; each failed batch
/// doubles the run needed before the next, since late in a puzzle, where
/// about every other clue is needed, a failed batch is a long search that
/// decides nothing.
struct Batches {
    /// The next batch's size, before [`Batches::size`]'s cap.
    size: usize,
    /// Clues dropped in a row since the last failed search.
    dropped_in_a_row: usize,
    /// The run of dropped clues that starts batches.
    run_to_start: usize,
}

impl Default for Batches {
    fn default() -> Batches {
        Batches {
            size: 1,
            dropped_in_a_row: 0,
            run_to_start: 4,
        }
    }
}

impl Batches {
    /// The next batch's size, with `clues` left: never more than a quarter
    /// of them, since a search with few clues is slow, and a batch that
    /// leaves few is slow to fail.
    fn size(&self, clues: usize) -> usize {
        self.size.min(clues / 4).max(1)
    }

    /// Records that a batch of `size` clues was dropped or not.
    fn record(&mut self, size: usize, dropped: bool) {
        if dropped {
            self.dropped_in_a_row += size;
            if self.dropped_in_a_row >= self.run_to_start {
                self.size = size * 2;
            }
        } else {
            if size > 1 {
                self.run_to_start *= 2;
            }
            self.dropped_in_a_row = 0;
            self.size = 1;
        }
    }
}

/// A tour chosen with `rng`: a random start and a random opening walk of up
/// to a quarter of the board, halved until some tour continues it.
fn random_tour(
    board: &Board,
    closed: bool,
    request: &Request,
    deadline: &Deadline,
    rng: &mut fastrand::Rng,
) -> Result<Option<Tour>, Error> {
    let graph = MoveGraph::ascending(board);
    let n = board.squares();
    let start = rng.usize(..n);
    let mut walk = vec![start];
    while walk.len() < n.div_ceil(4) {
        let here = *walk.last().expect("the walk has a start");
        let next: Vec<usize> = graph
            .neighbours(here)
            .iter()
            .map(|&s| s as usize)
            .filter(|s| !walk.contains(s))
            .collect();
        if next.is_empty() {
            break;
        }
        walk.push(next[rng.usize(..next.len())]);
    }
    let mut length = walk.len();
    loop {
        let problem = Problem::new(board.clone())
            .closed(closed)
            .with_clues(clues_along(&walk[..length]))?;
        let solved =
            solve(&problem, &request.with_time_left(deadline)?).map_err(|error| match error {
                Error::Run(RunError::Timeout { .. }) => deadline.expired().into(),
                other => other,
            })?;
        if let Outcome::Tour(tour) = solved.outcome {
            return Ok(Some(tour));
        }
        if length == 0 {
            return Ok(None);
        }
        // A start with no tour: let the solver choose the start instead.
        length /= 2;
    }
}

/// A clue for every square of a walk: step t on its t-th square.
fn clues_along(squares: &[usize]) -> Vec<Clue> {
    squares
        .iter()
        .enumerate()
        .map(|(step, &square)| Clue { step, square })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::spread_order;

    /// Each level in turn, worked out by its modulus: the steps that are
    /// 2^L mod 2^(L+1), for L = 0, 1, 2, …, in any order within the level,
    /// and step 0 last.
    #[test]
    fn the_spread_order_tries_every_step_once_odd_steps_first_and_step_0_last() {
        for squares in [1, 2, 25, 64, 400] {
            let order = spread_order(squares, &mut fastrand::Rng::with_seed(7));
            assert_eq!(order.len(), squares, "{squares}");
            let mut at = 0;
            let mut power = 1;
            while power < squares {
                let level: Vec<usize> = (1..squares)
                    .filter(|step| step % (2 * power) == power)
                    .collect();
                let mut tried = order[at..at + level.len()].to_vec();
                tried.sort_unstable();
                assert_eq!(tried, level, "{squares}: the level of {power}");
                at += level.len();
                power *= 2;
            }
            assert_eq!(&order[at..], [0], "{squares}");
        }
    }

    #[test]
    fn the_spread_order_is_the_seeds_within_each_level() {
        let one = spread_order(400, &mut fastrand::Rng::with_seed(1));
        let again = spread_order(400, &mut fastrand::Rng::with_seed(1));
        let other = spread_order(400, &mut fastrand::Rng::with_seed(2));
        assert_eq!(one, again);
        assert_ne!(one[..200], other[..200], "the odd steps in another order");
        let mut odd = one[..200].to_vec();
        odd.sort_unstable();
        assert_eq!(odd, (1..400).step_by(2).collect::<Vec<_>>());
    }
}
