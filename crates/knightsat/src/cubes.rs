//! Cubes for cube-and-conquer: the formula split into disjoint, exhaustive
//! parts that can be solved (or counted) one by one, on many cores or many
//! machines, and whose answers add up.
//!
//! For the time-indexed encoding a cube is a legal prefix of the tour: the
//! squares after 0, 1, …, D moves, given as the positive literals
//! x(0, s₀) … x(D, s\_D). The prefixes are all sequences of D + 1 distinct
//! squares, each a move of the board's leaper from the one before, with
//! every x(t, s\_t) live in the encoding's [domain](crate::encoding::time_indexed::Domain)
//! (which already holds the start, the end and the clues).
//!
//! - **Disjoint**: two different prefixes put some step t on two different
//!   squares, and a tour is on one square after t moves; so no tour extends
//!   two cubes.
//! - **Exhaustive**: the first D + 1 squares of any tour of the formula are
//!   distinct, joined by moves and live (the domain only rules out
//!   x(t, s) that no tour of the formula sets), so they are one of the
//!   prefixes enumerated.
//! - **Dead ends**: a prefix is dropped only when no live, unvisited square
//!   one move on exists for its next step: no tour can extend it, so nothing
//!   is lost.

use crate::error::{CnfError, RunError};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::cnf::Lit;
use crate::encoding::time_indexed::TimeIndexed;
use crate::encoding::EncodingConfig;
use crate::error::{Error, Unsupported};
use crate::graph::MoveGraph;
use crate::model::problem::{Clue, Problem};
use crate::runtime::stop::Stop;
use crate::runtime::threads::resolve_jobs;

/// One cube: a legal prefix of the tour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cube {
    /// The squares after 0, 1, …, D moves.
    pub squares: Vec<usize>,
    /// x(t, squares\[t\]) for each t, positive.
    pub literals: Vec<Lit>,
}

impl Cube {
    /// `problem` confined to this cube: each of its squares a clue at its
    /// step. Its tours are exactly the tours of `problem` that extend the
    /// cube, as with the cube's literals as unit clauses, but the
    /// [domain](crate::encoding::time_indexed::Domain) prunes with the
    /// clues (no other step on a cube square, reachability from each), so
    /// the formula is smaller and the count faster, the more so the deeper
    /// the cubes (docs/cubes.md, Figures, "Pinned cubes").
    pub fn pinned(&self, problem: &Problem) -> Result<Problem, Error> {
        let clues = self
            .squares
            .iter()
            .enumerate()
            .map(|(step, &square)| Clue { step, square });
        Ok(problem.clone().with_clues(clues)?)
    }

    /// The cube in DIMACS numbers, as in an iCNF `a … 0` line (without the 0).
    pub fn dimacs(&self) -> Vec<isize> {
        self.literals.iter().map(|lit| lit.to_dimacs()).collect()
    }
}

/// What a walk of the prefixes checks now and then (every
/// [`SQUARES_BETWEEN_CHECKS`] squares it tries): its error ends the walk, so
/// that a deep walk, which may try as many squares as a search for every
/// tour, keeps a time limit and an interrupt.
pub(crate) type Halt<'a> = &'a dyn Fn() -> Result<(), RunError>;

/// A [`Halt`] that never ends a walk: for callers with no time limit.
#[allow(clippy::unnecessary_wraps)] // a Halt's signature
pub(crate) fn never() -> Result<(), RunError> {
    Ok(())
}

/// How many squares a walk of the prefixes tries between two looks at its
/// [`Halt`]: often enough to stop within a millisecond, rarely enough to
/// cost nothing.
const SQUARES_BETWEEN_CHECKS: u32 = 1 << 12;

/// The depth actually used for a board of `squares` squares: at most
/// N − 1 moves (a prefix of N squares is a whole tour).
pub fn effective_depth(depth: usize, squares: usize) -> usize {
    depth.min(squares.saturating_sub(1))
}

/// The cube of the legal prefix `path`.
fn cube_on(encoding: &TimeIndexed, path: &[usize]) -> Cube {
    let vars = encoding.vars();
    Cube {
        squares: path.to_vec(),
        literals: path
            .iter()
            .enumerate()
            .map(|(t, &s)| vars.x(t, s).positive())
            .collect(),
    }
}

/// Walks the legal prefixes of `depth` moves in [`prefixes`]' order,
/// handing each to `emit` until it breaks; `halt`'s error ends it early.
fn walk(
    encoding: &TimeIndexed,
    depth: usize,
    halt: Halt<'_>,
    emit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> Result<(), RunError> {
    let problem = crate::encoding::Encoding::problem(encoding);
    let board = problem.board();
    let n = board.squares();
    if n == 0 {
        return Ok(());
    }
    let depth = effective_depth(depth, n);
    let live = live_in_cubes(encoding);
    let mut walker = Walker {
        graph: MoveGraph::ascending(board),
        live: &live,
        depth,
        path: Vec::with_capacity(depth + 1),
        visited: vec![false; n],
        halt,
        until_check: SQUARES_BETWEEN_CHECKS,
        halted: None,
    };
    for start in (0..n).filter(|&s| (walker.live)(0, s)) {
        walker.path.push(start);
        walker.visited[start] = true;
        if walker.extend(emit).is_break() {
            break;
        }
        walker.visited[start] = false;
        walker.path.pop();
    }
    walker.halted.map_or(Ok(()), Err)
}

/// Whether x(t, s) may be in a cube: live in the encoding's domain, and not
/// the end square before the last step (the domain pins the clues but
/// leaves the end to its unit clause).
fn live_in_cubes(encoding: &TimeIndexed) -> impl Fn(usize, usize) -> bool + '_ {
    let problem = crate::encoding::Encoding::problem(encoding);
    let last = problem.board().squares().saturating_sub(1);
    let end = problem.end();
    move |t, s| encoding.domain().is_live(t, s) && (t == last || end != Some(s))
}

/// A walk of the prefixes under way: the prefix so far and what it checks.
struct Walker<'a> {
    graph: MoveGraph,
    live: &'a dyn Fn(usize, usize) -> bool,
    depth: usize,
    path: Vec<usize>,
    visited: Vec<bool>,
    halt: Halt<'a>,
    /// Squares to try before the next look at `halt`.
    until_check: u32,
    /// `halt`'s error, once it has ended the walk.
    halted: Option<RunError>,
}

impl Walker<'_> {
    fn extend(&mut self, emit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>) -> ControlFlow<()> {
        let step = self.path.len();
        if step == self.depth + 1 {
            return emit(&self.path);
        }
        self.until_check -= 1;
        if self.until_check == 0 {
            self.until_check = SQUARES_BETWEEN_CHECKS;
            if let Err(error) = (self.halt)() {
                self.halted = Some(error);
                return ControlFlow::Break(());
            }
        }
        let here = self.path[step - 1];
        for index in 0..self.graph.neighbours(here).len() {
            let next = self.graph.neighbours(here)[index] as usize;
            if !self.visited[next] && (self.live)(step, next) {
                self.visited[next] = true;
                self.path.push(next);
                let walked = self.extend(emit);
                self.path.pop();
                self.visited[next] = false;
                walked?;
            }
        }
        ControlFlow::Continue(())
    }
}

/// Why cubes are refused for `problem` under the successor encoding: a
/// graph has no other, a board does.
pub(crate) fn cubes_refused(problem: &Problem) -> Unsupported {
    if problem.board().graph().is_some() {
        Unsupported::CubesOnGraph
    } else {
        Unsupported::CubesWithSuccessor
    }
}

/// The time-indexed encoding `config` prepares for `problem`, which cubes need.
fn time_indexed(problem: &Problem, config: &EncodingConfig) -> Result<TimeIndexed, Error> {
    match config {
        EncodingConfig::TimeIndexed(config) => Ok(TimeIndexed::new(problem, *config)?),
        EncodingConfig::Successor(_) => Err(Error::Unsupported(cubes_refused(problem))),
    }
}

/// How many cubes of `depth` moves `problem` has, counted without holding
/// them: exactly when there are at most `at_most`, otherwise `at_most + 1`
/// (the walk stops there, so its time is bounded by `at_most` too).
pub fn cube_count(
    problem: &Problem,
    config: &EncodingConfig,
    depth: usize,
    at_most: usize,
) -> Result<usize, Error> {
    cube_count_until(problem, config, depth, at_most, &never)
}

/// [`cube_count`], ended by `halt`'s error.
pub(crate) fn cube_count_until(
    problem: &Problem,
    config: &EncodingConfig,
    depth: usize,
    at_most: usize,
    halt: Halt<'_>,
) -> Result<usize, Error> {
    let encoding = time_indexed(problem, config)?;
    Ok(count_prefixes(&encoding, depth, at_most, halt)?)
}

/// The legal prefixes of `depth` moves of `encoding`: exactly when there
/// are at most `at_most`, otherwise `at_most + 1`.
fn count_prefixes(
    encoding: &TimeIndexed,
    depth: usize,
    at_most: usize,
    halt: Halt<'_>,
) -> Result<usize, RunError> {
    let mut count = 0;
    walk(encoding, depth, halt, &mut |_| {
        count += 1;
        if count > at_most {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    Ok(count)
}

/// Hands every cube of `depth` moves to `visit`, one at a time and in
/// the order of the prefixes, holding none of them: memory stays bounded by the
/// board whatever their number. Stops at `visit`'s first error.
pub fn for_each_cube(
    problem: &Problem,
    config: &EncodingConfig,
    depth: usize,
    visit: impl FnMut(&Cube) -> Result<(), Error>,
) -> Result<(), Error> {
    for_each_cube_until(problem, config, depth, &never, visit)
}

/// [`for_each_cube`], ended by `halt`'s error.
pub(crate) fn for_each_cube_until(
    problem: &Problem,
    config: &EncodingConfig,
    depth: usize,
    halt: Halt<'_>,
    mut visit: impl FnMut(&Cube) -> Result<(), Error>,
) -> Result<(), Error> {
    let encoding = time_indexed(problem, config)?;
    let mut failure = None;
    walk(
        &encoding,
        depth,
        halt,
        &mut |path| match visit(&cube_on(&encoding, path)) {
            Ok(()) => ControlFlow::Continue(()),
            Err(error) => {
                failure = Some(error);
                ControlFlow::Break(())
            }
        },
    )?;
    failure.map_or(Ok(()), Err)
}

/// The cubes of `depth` moves at the positions `indices` (ascending) of
/// [`prefixes`]' order: a sample, without holding the others. `halt`'s
/// error ends the walk.
pub(crate) fn cubes_at(
    problem: &Problem,
    config: &EncodingConfig,
    depth: usize,
    indices: &[usize],
    halt: Halt<'_>,
) -> Result<Vec<Cube>, Error> {
    let encoding = time_indexed(problem, config)?;
    let mut chosen = Vec::with_capacity(indices.len());
    let mut wanted = indices.iter().copied().peekable();
    let mut index = 0;
    walk(&encoding, depth, halt, &mut |path| {
        if wanted.peek() == Some(&index) {
            wanted.next();
            chosen.push(cube_on(&encoding, path));
        }
        index += 1;
        if wanted.peek().is_some() {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    })?;
    Ok(chosen)
}

/// The memory one cube of `depth` moves takes when all are held: its entry
/// in the list (two vectors, 48 bytes) and its squares (8 bytes each) and
/// literals (4 bytes each) on the heap, each allocation rounded up to 16
/// bytes with 8 of bookkeeping, as glibc's allocator does. Measured (peak
/// resident memory over cubes, `cubes --size 8 -o /dev/null`): 178 bytes
/// at depth 8 (2.6 million cubes), 192 at depth 9 (11.4 million), 208 at
/// depth 10 (47.6 million, 9.7 GB); this gives 176, 192 and 208.
/// Past any real depth the figure saturates at `u64::MAX`.
pub fn bytes_per_cube(depth: usize) -> u64 {
    let allocation = |bytes: u64| {
        bytes
            .saturating_add(8)
            .div_ceil(16)
            .max(2)
            .saturating_mul(16)
    };
    let squares = (depth as u64).saturating_add(1);
    allocation(squares.saturating_mul(8))
        .saturating_add(allocation(squares.saturating_mul(4)))
        .saturating_add(48)
}

/// The cubes of `depth` moves for `problem` encoded as `config` says, all
/// held in memory, whatever their number: `cubes_within` checks them
/// against a memory budget first, [`for_each_cube`] never holds them.
pub fn cubes(problem: &Problem, config: &EncodingConfig, depth: usize) -> Result<Vec<Cube>, Error> {
    cubes_within(problem, config, depth, u64::MAX, &never)
}

/// [`cubes`] within `budget_bytes`: the cubes are counted first, without
/// being held, and refused with [`Error::CubesOverMemoryBudget`] (naming
/// the deepest depth whose cubes fit) when they would need more
/// ([`bytes_per_cube`] each). The jobs that split by cubes pass the
/// request's memory budget. A depth past the tour's last
/// move is the whole tour's ([`effective_depth`]), and is held as such.
/// `halt`'s error ends the walks.
///
/// The depths are counted from 1 up, each within what the budget holds:
/// the walk to a depth passes every prefix of each shallower one, and
/// near a tour's length those are far more than the cubes (every 6x6
/// tour is a cube of depth 35, but the walk to them is the whole search),
/// so a depth whose walk passes more prefixes than the budget holds is
/// refused at the first depth that does, in about the time of walking
/// what the budget holds.
pub(crate) fn cubes_within(
    problem: &Problem,
    config: &EncodingConfig,
    depth: usize,
    budget_bytes: u64,
    halt: Halt<'_>,
) -> Result<Vec<Cube>, Error> {
    let depth = effective_depth(depth, problem.board().squares());
    let encoding = time_indexed(problem, config)?;
    let fitting =
        |depth: usize| usize::try_from(budget_bytes / bytes_per_cube(depth)).unwrap_or(usize::MAX);
    let mut count = 0;
    for level in 1..=depth {
        count = count_prefixes(&encoding, level, fitting(level), halt)?;
        if count > fitting(level) {
            return Err(Error::CubesOverMemoryBudget {
                depth: level,
                asked: depth,
                cubes: count as u64,
                estimate_mib: (count as u64 * bytes_per_cube(level)).div_ceil(1 << 20),
                budget_mib: budget_bytes >> 20,
                smaller_depth: (level > 1).then(|| level - 1),
            });
        }
    }
    let mut cubes = Vec::with_capacity(count);
    walk(&encoding, depth, halt, &mut |path| {
        cubes.push(cube_on(&encoding, path));
        ControlFlow::Continue(())
    })?;
    Ok(cubes)
}

/// The cube of the squares `squares` (after 0, 1, … moves), checked to be
/// a legal prefix for `problem` encoded as `config` says.
pub(crate) fn cube_of(
    problem: &Problem,
    config: &EncodingConfig,
    squares: &[usize],
) -> Result<Cube, Error> {
    let encoding = time_indexed(problem, config)?;
    let board = problem.board();
    let names = || {
        squares
            .iter()
            .map(|&s| board.name(s))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let live = live_in_cubes(&encoding);
    let legal = !squares.is_empty()
        && squares.len() <= board.squares()
        && squares
            .iter()
            .enumerate()
            .all(|(t, &s)| s < board.squares() && live(t, s) && !squares[..t].contains(&s))
        && squares.windows(2).all(|w| board.is_move(w[0], w[1]));
    if !legal {
        return Err(Error::Cnf(CnfError::NotKnightsatCnf(format!(
            "the cube {} is not a legal start of a tour of this CNF",
            names()
        ))));
    }
    let vars = encoding.vars();
    Ok(Cube {
        squares: squares.to_vec(),
        literals: squares
            .iter()
            .enumerate()
            .map(|(t, &s)| vars.x(t, s).positive())
            .collect(),
    })
}

/// Runs `work` on each of `cubes` (with its index), on `jobs` threads (0:
/// one per core), each thread taking the next cube not yet taken: the one
/// worker loop of every cube-and-conquer search.
///
/// The first cube whose work breaks with a value ends the run: `stop` is
/// raised, so that the other threads' solvers stop, and the value is
/// returned. So does the first error, which is returned. Work that fails
/// with [`RunError::Stopped`] after that is not an error. When every cube's
/// work continues, the answer is `None`. A `stop` raised from outside
/// (a time limit) before every cube is done ends the run with
/// [`RunError::Stopped`].
pub(crate) fn on_cubes<T: Send>(
    cubes: &[Cube],
    jobs: usize,
    stop: &Stop,
    work: impl Fn(usize, &Cube) -> Result<ControlFlow<T>, Error> + Sync,
) -> Result<Option<T>, Error> {
    on_cubes_in_runs(cubes, jobs, 1, stop, work)
}

/// [`on_cubes`], each thread taking the next `run` cubes not yet taken (at
/// least one) instead of the next one: neighbouring cubes share their first
/// moves, so a thread that remembers what it met in one cube's search
/// (backtracking's counter) finds more of it again in the next.
pub(crate) fn on_cubes_in_runs<T: Send>(
    cubes: &[Cube],
    jobs: usize,
    run: usize,
    stop: &Stop,
    work: impl Fn(usize, &Cube) -> Result<ControlFlow<T>, Error> + Sync,
) -> Result<Option<T>, Error> {
    let run = run.max(1);
    let threads = resolve_jobs(jobs).min(cubes.len().div_ceil(run));
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let ended: Mutex<Option<Result<T, Error>>> = Mutex::new(None);
    let end = |result: Result<T, Error>| {
        ended
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(result);
        stop.stop();
    };
    let worker = || {
        while !stop.is_stopped() {
            let first = next.fetch_add(run, Ordering::Relaxed);
            if first >= cubes.len() {
                return;
            }
            let taken = cubes.iter().enumerate().skip(first).take(run);
            for (index, cube) in taken {
                if stop.is_stopped() {
                    return;
                }
                match work(index, cube) {
                    Ok(ControlFlow::Continue(())) => {
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(ControlFlow::Break(value)) => return end(Ok(value)),
                    Err(Error::Run(RunError::Stopped)) => return,
                    Err(error) => return end(Err(error)),
                }
            }
        }
    };
    std::thread::scope(|scope| {
        // Under a limit that leaves room for fewer threads, fewer work,
        // or this one alone.
        let started = (0..threads)
            .take_while(|_| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, worker)
                    .is_ok()
            })
            .count();
        if started == 0 {
            worker();
        }
    });
    match ended.into_inner().unwrap_or_else(PoisonError::into_inner) {
        Some(result) => result.map(Some),
        None if done.into_inner() < cubes.len() => Err(Error::Run(RunError::Stopped)),
        None => Ok(None),
    }
}

/// The deepest cubes a depth chosen automatically reaches, in moves: past
/// it the cubes of any board number too many to make.
pub(crate) const DEEPEST_AUTOMATIC_DEPTH: usize = 12;

/// The depth chosen when none is given: the smallest that gives at least
/// `per_job` × `jobs` cubes (so that threads finish close together and each
/// cube keeps few blocking clauses), at most [`DEEPEST_AUTOMATIC_DEPTH`].
/// `halt`'s error ends the walks.
pub(crate) fn automatic_depth(
    problem: &Problem,
    config: &EncodingConfig,
    (jobs, per_job): (usize, usize),
    halt: Halt<'_>,
) -> Result<usize, Error> {
    let wanted = jobs.max(1) * per_job;
    let cap = effective_depth(DEEPEST_AUTOMATIC_DEPTH, problem.board().squares());
    for depth in 1..=cap {
        if cube_count_until(problem, config, depth, wanted, halt)? >= wanted {
            return Ok(depth);
        }
    }
    Ok(cap.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::board::Board;

    #[test]
    fn a_fixed_start_gives_one_cube_per_first_move() {
        let problem = Problem::new(Board::new(5, 5).unwrap())
            .with_start(Some(0))
            .unwrap();
        let cubes = cubes(&problem, &EncodingConfig::default(), 1).unwrap();
        assert_eq!(cubes.len(), 2);
        for cube in &cubes {
            assert_eq!(cube.squares[0], 0);
            assert_eq!(cube.dimacs()[0], 1);
        }
    }
}
