//! Making a puzzle: a random tour, every square a clue, then each clue
//! dropped that the others do without, until the tour is the only solution
//! of the clues left and none can go.

use crate::cnf::Lit;
use crate::encoding::{EncodingConfig, TimeIndexed};
use crate::error::ProblemError;
use crate::error::{Error, RunError};
use crate::gate::refute;
use crate::graph::MoveGraph;
use crate::model::board::Board;
use crate::model::problem::{Clue, Problem};
use crate::runtime::deadline::Deadline;
use crate::runtime::stop::Stop;
use crate::runtime::threads::{cores, spawn_or_hand_back};
use crate::sat::Setup;
use crate::solve::{solve, Outcome, Request};
use crate::tour::Tour;
use std::sync::mpsc;

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
///
/// `stop` ends the search from outside ([`RunError::Stopped`]); a search
/// that may be ended so must be `stoppable` (see [`Setup::stoppable`]).
fn only_solution_without(
    puzzle: &Problem,
    dropped: &[Clue],
    solution: &Tour,
    request: &Request,
    (stop, stoppable): (&Stop, bool),
) -> Result<bool, Error> {
    let config = request.config.keeping_every_tour();
    stop.within(request.timeout, &request.interrupt, || {
        let setup = Setup {
            stoppable: stoppable || request.may_stop(),
            ..Setup::new(stop)
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
/// go. Every search is SAT with `request`'s encoding and built-in solver,
/// one per core at once (see `Dropping`): the puzzle is the one that
/// trying the clues one after another makes. `on_step(done, total)`
/// reports progress.
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
    on_step: impl FnMut(usize, usize),
) -> Result<Option<Generated>, Error> {
    let searches = searches_that_fit(board, closed, request)?;
    generate_on(board, closed, seed, request, searches, on_step)
}

/// How many searches run at once: one a core, as many as the memory
/// budget holds the formula of the board without clues for, the largest
/// a search builds (at least one, which the budget then refuses as a
/// search alone would be).
fn searches_that_fit(board: &Board, closed: bool, request: &Request) -> Result<usize, Error> {
    let problem = Problem::new(board.clone()).closed(closed);
    let encoding = request.config.keeping_every_tour().prepare(&problem)?;
    let each = request.backend.estimated_memory_mib(&*encoding).max(1);
    let fit = usize::try_from(request.memory_budget_mib / each).unwrap_or(usize::MAX);
    Ok(cores().min(fit).max(1))
}

/// [`generate`] with at most `searches` searches at once.
fn generate_on(
    board: &Board,
    closed: bool,
    seed: u64,
    request: &Request,
    searches: usize,
    mut on_step: impl FnMut(usize, usize),
) -> Result<Option<Generated>, Error> {
    let searches = searches.max(1);
    if refute(&Problem::new(board.clone()).closed(closed)).is_some() {
        return Ok(None);
    }
    let deadline = Deadline::new(request.timeout);
    let mut rng = fastrand::Rng::with_seed(seed);
    let Some(solution) = random_tour(board, closed, request, &deadline, &mut rng)? else {
        return Ok(None);
    };
    let n = board.squares();
    let order = spread_order(n, &mut rng);
    let with_clues = |clues: &[Clue]| {
        Problem::new(board.clone())
            .closed(closed)
            .with_clues(clues.iter().copied())
    };
    let searching = Searching {
        with_clues: &with_clues,
        solution: &solution,
        request: Request {
            memory_budget_mib: request.memory_budget_mib / searches as u64,
            ..request.clone()
        },
        deadline: &deadline,
        searches,
    };
    let mut dropping = Dropping {
        order: &order,
        clues: clues_along(&solution.squares),
        version: 0,
        verdicts: vec![Verdict::Open; n],
        batch_verdict: None,
        batches: Batches::default(),
        done: 0,
    };
    let untried = match dropping.run(&searching, &mut on_step) {
        Ok(()) => 0,
        Err(Error::Run(RunError::Timeout { .. })) => n - dropping.done,
        Err(error) => return Err(error),
    };
    let puzzle = with_clues(&dropping.clues)?;
    on_step(n, n);
    Ok(Some(Generated {
        puzzle,
        solution,
        untried,
    }))
}

/// What every search of one generation shares.
struct Searching<'a> {
    /// The puzzle of a set of clues.
    with_clues: &'a dyn Fn(&[Clue]) -> Result<Problem, ProblemError>,
    /// The tour the puzzle is made from.
    solution: &'a Tour,
    /// Each search's request: its share of the memory budget.
    request: Request,
    /// The end of the generation's time.
    deadline: &'a Deadline,
    /// How many searches run at once (at least one).
    searches: usize,
}

/// Ends the searches still `running` (those that can be stopped) and
/// returns `outcome`.
fn end(running: &[Running], outcome: Result<(), Error>) -> Result<(), Error> {
    for search in running {
        search.stop.stop();
    }
    outcome
}

/// What the searches so far say about dropping one step's clue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Nothing yet, or only about a set of clues that has changed since.
    Open,
    /// Needed: another tour meets every clue of a set that held this one
    /// but this one, and so every clue of each smaller set but this one.
    Needed,
    /// Droppable from the set of clues of this version: the solution is
    /// the only tour without it. A smaller set may need it.
    DroppableFrom(u64),
}

impl Verdict {
    /// Whether the clue can go (`Some(true)`) or is needed (`Some(false)`)
    /// when the clues left are those of `version`; `None` while a search
    /// must tell.
    fn decides(self, version: u64) -> Option<bool> {
        match self {
            Verdict::Needed => Some(false),
            Verdict::DroppableFrom(from) if from == version => Some(true),
            _ => None,
        }
    }
}

/// A search under way: the steps whose clues it drops, from the set of
/// clues of `version`, and the flag that ends it.
struct Running {
    steps: Vec<usize>,
    version: u64,
    stop: Stop,
}

/// A search's answer: whether the solution is the only tour once the
/// clues of `steps` are dropped from the set of `version`.
struct Finished {
    steps: Vec<usize>,
    version: u64,
    unique: Result<bool, Error>,
}

/// The clues being dropped, one search at a time in `order` as far as
/// what is decided goes, with searches ahead of it on the other cores.
///
/// Trying the clues in order decides each against the clues left by the
/// ones before. A search ahead tries a later clue against the clues left
/// now, a superset of those it will be decided against; what it finds
/// still holds when a clue is needed (the other tour it found meets the
/// smaller set too), and when a clue can go from exactly the set it was
/// tried against. Anything else is tried again in its turn. So the
/// puzzle is the same as one search at a time makes, in less time where
/// a core would idle: most of the time goes to clues that are needed,
/// whose searches must each find another tour.
struct Dropping<'a> {
    /// The order in which the clues are tried (`spread_order`).
    order: &'a [usize],
    /// The clues left.
    clues: Vec<Clue>,
    /// How many times `clues` has changed.
    version: u64,
    /// What is known of each step's clue.
    verdicts: Vec<Verdict>,
    /// The answer about a batch of clues, with the version it holds for.
    batch_verdict: Option<(Vec<usize>, u64, bool)>,
    batches: Batches,
    /// How many clues of `order` are decided.
    done: usize,
}

impl Dropping<'_> {
    /// Decides every clue in order, with `searching.searches` searches at
    /// once, reporting progress to `on_step`; when a search fails (the time
    /// limit ran out: [`RunError::Timeout`]), the clues decided so far
    /// stay decided and the searches still under way are ended.
    fn run(
        &mut self,
        searching: &Searching<'_>,
        on_step: &mut impl FnMut(usize, usize),
    ) -> Result<(), Error> {
        let n = self.order.len();
        let (finished, results) = mpsc::channel::<Finished>();
        std::thread::scope(|scope| {
            let mut running: Vec<Running> = Vec::new();
            let outcome = loop {
                self.apply_verdicts(&running);
                on_step(self.done, n);
                if self.done == n {
                    break Ok(());
                }
                while running.len() < searching.searches {
                    let Some(steps) = self.next_search(&running) else {
                        break;
                    };
                    match self.start(steps, searching, scope, &finished) {
                        Ok(search) => running.push(search),
                        Err(error) => return end(&running, Err(error)),
                    }
                }
                // Some search is under way (the next batch's at least), and
                // `finished` is held here: a result always comes.
                let Ok(done) = results.recv() else {
                    unreachable!("a sender is held here")
                };
                running.retain(|search| {
                    (&search.steps, search.version) != (&done.steps, done.version)
                });
                match done.unique {
                    Ok(unique) => self.record(done.steps, done.version, unique),
                    // Ended from here: its clues were dropped in a batch.
                    Err(Error::Run(RunError::Stopped)) => {}
                    Err(error) => break Err(error),
                }
            };
            end(&running, outcome)
        })
    }

    /// Starts the search that drops the clues of `steps` from the clues
    /// left, on a thread of `scope` (on this one when no thread can be
    /// had: an address-space limit), its answer sent to `finished`.
    fn start<'scope>(
        &self,
        steps: Vec<usize>,
        searching: &'scope Searching<'_>,
        scope: &'scope std::thread::Scope<'scope, '_>,
        finished: &mpsc::Sender<Finished>,
    ) -> Result<Running, Error> {
        let request = searching.request.with_time_left(searching.deadline)?;
        let (kept, dropped) = self.without(&steps);
        let puzzle = (searching.with_clues)(&kept)?;
        let stoppable = self.may_be_ended(&steps);
        let search = Running {
            steps,
            version: self.version,
            stop: Stop::new(),
        };
        let (steps, version, stop) = (search.steps.clone(), search.version, search.stop.clone());
        let (solution, finished) = (searching.solution, finished.clone());
        let run = move || {
            let unique =
                only_solution_without(&puzzle, &dropped, solution, &request, (&stop, stoppable));
            let _ = finished.send(Finished {
                steps,
                version,
                unique,
            });
        };
        if let Err(run) = spawn_or_hand_back(scope, run, |run| run()) {
            run();
        }
        Ok(search)
    }

    /// The steps whose clues are tried next, in one search.
    fn batch(&self) -> Vec<usize> {
        let end = (self.done + self.batches.size(self.clues.len())).min(self.order.len());
        self.order[self.done..end].to_vec()
    }

    /// Decides the next batches in order as long as what is known decides
    /// them, and ends the searches for the clues a batch drops.
    fn apply_verdicts(&mut self, running: &[Running]) {
        while self.done < self.order.len() {
            let batch = self.batch();
            let decided = match batch[..] {
                [step] => self.verdicts[step].decides(self.version),
                // A batch with a needed clue cannot go whole.
                _ if batch
                    .iter()
                    .any(|&step| self.verdicts[step] == Verdict::Needed) =>
                {
                    Some(false)
                }
                _ => self
                    .batch_verdict
                    .as_ref()
                    .filter(|(steps, version, _)| *steps == batch && *version == self.version)
                    .map(|&(_, _, dropped)| dropped),
            };
            let Some(dropped_all) = decided else { return };
            if dropped_all {
                self.clues.retain(|clue| !batch.contains(&clue.step));
                self.version += 1;
                self.done += batch.len();
                for search in running {
                    if search.steps.iter().any(|step| batch.contains(step)) {
                        search.stop.stop();
                    }
                }
            } else {
                // A single clue is needed; of a batch, some clue is: try
                // them one at a time.
                self.done += usize::from(batch.len() == 1);
            }
            self.batches.record(batch.len(), dropped_all);
        }
    }

    /// The steps of the next search to start, beside those `running`: the
    /// next batch in order, else the first clue after it that no search
    /// has decided or is trying.
    fn next_search(&self, running: &[Running]) -> Option<Vec<usize>> {
        let batch = self.batch();
        if batch.is_empty() {
            return None;
        }
        if !running.iter().any(|search| search.steps == batch) {
            return Some(batch);
        }
        self.order[self.done + batch.len()..]
            .iter()
            .find(|&&step| {
                self.verdicts[step].decides(self.version).is_none()
                    && !running.iter().any(|search| search.steps.contains(&step))
            })
            .map(|&step| vec![step])
    }

    /// Whether a search for the clues of `steps` started now may have to be
    /// ended from here, and so must pay to be stoppable (about an eighth
    /// of varisat's time, see [`Setup::stoppable`]): a search ahead of the
    /// next batch while clues go in batches, which may drop its clue.
    /// Searches ahead while clues go one at a time are left to finish
    /// when a later batch drops their clue, which is rare there (batches
    /// start again only after a run of clues that can go), and cheaper
    /// than the eighth on every search.
    fn may_be_ended(&self, steps: &[usize]) -> bool {
        let batch = self.batch();
        steps != batch && batch.len() > 1
    }

    /// The clues left without those of `steps`, and those of `steps`.
    fn without(&self, steps: &[usize]) -> (Vec<Clue>, Vec<Clue>) {
        self.clues
            .iter()
            .copied()
            .partition(|clue| !steps.contains(&clue.step))
    }

    /// Records a search's answer: the solution is the only tour, or not,
    /// without the clues of `steps` from the set of `version`.
    fn record(&mut self, steps: Vec<usize>, version: u64, unique: bool) {
        match (&steps[..], unique) {
            ([step], false) => self.verdicts[*step] = Verdict::Needed,
            ([step], true) => {
                if self.verdicts[*step] != Verdict::Needed {
                    self.verdicts[*step] = Verdict::DroppableFrom(version);
                }
            }
            _ => self.batch_verdict = Some((steps, version, unique)),
        }
    }
}

/// The order in which the clues of a tour of `squares` squares are tried:
/// random, but the odd steps first, then the steps 2 mod 4, then 4 mod 8,
/// and so on, step 0 last. The clues left then stay spread along the tour,
/// with no long run of moves between two of them, which is what makes the
/// searches near the end cheap: each looks for another tour meeting every
/// clue left but one, a puzzle as hard as its longest runs. Measured on
/// 20x20 seed 1 (docs/notebook.md, "Clues tried in a spread order"):
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
    use super::{generate_on, spread_order};
    use crate::model::board::Board;
    use crate::solve::Request;

    /// Searches ahead on other cores change the time a puzzle takes, not
    /// the puzzle: each seed makes the same clues with one search at a
    /// time as with two or three at once.
    #[test]
    fn searches_at_once_make_the_puzzle_one_search_at_a_time_makes() {
        let request = Request::default();
        for (size, seed) in [(6, 1), (6, 2), (8, 1), (8, 2), (8, 3), (10, 1)] {
            let board = Board::new(size, size).unwrap();
            let made = |searches| {
                generate_on(&board, false, seed, &request, searches, |_, _| {})
                    .unwrap()
                    .unwrap()
            };
            let one = made(1);
            assert_eq!(one.untried, 0);
            for searches in [2, 3] {
                assert_eq!(
                    made(searches),
                    one,
                    "{size}x{size} seed {seed}, {searches} at once"
                );
            }
        }
    }

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
