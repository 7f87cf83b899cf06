//! Backtracking: a complete depth-first search for tours, ordered by
//! Warnsdorff's rule, with cheap pruning. It finds a tour or proves by
//! exhaustion that there is none, and it lists every tour for counting.
//!
//! The search is iterative (an explicit stack of at most eight candidates
//! per move), so no board can overflow the call stack. A closed tour is
//! searched as an open walk from its start to a virtual square joined to
//! the start's neighbours, which stands for the closing move; a fixed end,
//! the virtual square and every clue are squares pinned to a step. At every
//! move the search prunes:
//!
//! - **steps and clues**: a square pinned to a step is entered at that step
//!   only, and the square of a pinned step must be a move away; each pinned
//!   square must be within reach, in moves of the leaper, of the current
//!   square by its step (and, before the search starts, of the square
//!   pinned before it; every square must be reachable at all);
//! - **colour counts**: a leaper that changes colour alternates, so the
//!   squares left must split between the colours as the moves left do (a
//!   leaper that keeps its colour needs them all of one colour);
//! - **dead ends**: a square left with no way in is fatal; one not next to
//!   the knight with a single way in must be the last, and there is one last
//!   square (the fixed end, if given); a neighbour of the knight with at most
//!   one other way in or out must be next or last, so such squares force the
//!   next move (or rule every move out).
//!
//! Candidates are tried in Warnsdorff's order, with the default tie-breaks
//! of [Warnsdorff's rule](mod@super::warnsdorff): fewest unvisited neighbours
//! first, then the fewest onward moves one step further, then farthest from
//! the centre, then the leaper's move order. To find one closed tour with
//! nothing fixed, the search starts in the middle of the board (where the
//! order finishes) and rotates the tour to start on the first square.

use std::cmp::Reverse;
use std::ops::ControlFlow;
use std::time::Duration;

use super::{forced_start_colour, verified};

use crate::graph::{MoveGraph, UNREACHED};
use crate::model::board::{Board, Square};
use crate::model::problem::{Clue, Problem};
use crate::runtime::deadline::Deadline;
use crate::runtime::interrupt::Interrupt;
use crate::search::SearchError;
use crate::tour::Tour;

/// Finds a tour of `problem`: `Some` tour, or `None` when the search has
/// tried everything and there is none; [`RunError::Timeout`](crate::runtime::RunError::Timeout) when `timeout`
/// runs out first. The tour is verified before it is returned.
pub fn backtrack(
    problem: &Problem,
    timeout: Option<Duration>,
) -> Result<Option<Tour>, SearchError> {
    backtrack_until(problem, &Deadline::new(timeout))
}

/// [`backtrack`] within `clock`: [`RunError::Timeout`](crate::runtime::RunError::Timeout) when its time runs out,
/// [`RunError::Interrupted`](crate::runtime::RunError::Interrupted) when its interrupt is raised.
pub fn backtrack_until(problem: &Problem, clock: &Deadline) -> Result<Option<Tour>, SearchError> {
    let mut found = None;
    search(
        problem,
        clock,
        Starts::Representatives,
        &mut |_, _| true,
        |squares| {
            found = Some(squares.to_vec());
            Ok(ControlFlow::Break(()))
        },
    )?;
    found.map(|squares| verified(problem, squares)).transpose()
}

/// Calls `on_tour` with every tour of `problem` rooted as counting wants it:
/// every tour, except that a closed tour with nothing anchored is listed
/// from its default start only ([`Problem::effective_start`]), once in each
/// direction. Stops when `on_tour` breaks; [`SearchError::Timeout`] when `clock`
/// runs out first ([`SearchError::Interrupted`] when its interrupt is raised).
/// Each tour is verified before `on_tour` sees it. Skips every tour
/// that begins with a prefix `keep`
/// refuses: `keep(step, square)` hears each square as the search puts it
/// on `step` (the steps of the tour as listed, in order, a step again
/// after the search went back past it) and answers whether a tour may go
/// on from there. Where the search runs an open tour from its end, `keep`
/// is not asked.
pub(crate) fn each_tour_keeping(
    problem: &Problem,
    clock: &Deadline,
    mut keep: impl FnMut(usize, usize) -> bool,
    mut on_tour: impl FnMut(&Tour) -> Result<ControlFlow<()>, SearchError>,
) -> Result<(), SearchError> {
    search(problem, clock, Starts::All, &mut keep, |squares| {
        on_tour(&verified(problem, squares.to_vec())?)
    })
}

/// How many nodes a state has left to visit when its completions are
/// remembered: deep enough that states repeat, shallow enough that each
/// saves a subtree; 18 was the fastest of 14 to 22 on 6x6
/// (docs/notebook.md, "Search without SAT against SAT").
pub const REMEMBERED_LEFT: usize = 18;

/// A search state: the nodes visited (a bit each), the head, and for a
/// closed tour the start (whose neighbours the virtual last square joins).
pub(super) type State = (u128, u32, u32);

/// Where the counting walk keeps how many ways each state it met with
/// [`REMEMBERED_LEFT`] nodes left is completed, and looks them up.
pub(super) trait Memo {
    /// The completions remembered for `state`, if any.
    fn recall(&self, state: &State) -> Option<u64>;
    /// Remembers the completions of `state`.
    fn remember(&self, state: State, completions: u64);
}

/// Which squares an open tour with no start may start on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Starts {
    /// Every square: for listing every tour.
    All,
    /// Enough squares that every tour, or its reverse or image under a
    /// symmetry, starts on one: for finding one tour.
    Representatives,
}

/// Runs the search for every start `problem` allows and hands each tour
/// found, as a sequence of squares of `problem`, to `on_tour`.
fn search(
    problem: &Problem,
    clock: &Deadline,
    starts: Starts,
    keep: &mut impl FnMut(usize, usize) -> bool,
    mut on_tour: impl FnMut(&[usize]) -> Result<ControlFlow<()>, SearchError>,
) -> Result<(), SearchError> {
    // An open tour with only its end fixed is searched from the end.
    let reversed = !problem.is_closed() && problem.start().is_none() && problem.end().is_some();
    // `keep` hears the steps of the tour as listed: not those of a walk
    // read backwards, or one turned to another start afterwards.
    let mut keep_all = |_: usize, _: usize| true;
    let keep: &mut dyn FnMut(usize, usize) -> bool =
        if reversed || starts == Starts::Representatives {
            &mut keep_all
        } else {
            keep
        };
    // To find one closed tour with nothing anchored, start in the middle
    // (Warnsdorff's order spirals inwards, so the walk tends to finish
    // there), then rotate the tour to its default start.
    let rotate_to = problem
        .effective_start()
        .filter(|_| starts == Starts::Representatives && problem.start_fixed_by_default());
    let searched = if reversed {
        reverse(problem)
    } else if rotate_to.is_some() {
        let middle = (0..problem.board().squares()).min_by_key(|&s| outward(problem.board(), s));
        problem
            .clone()
            .with_start(middle)
            .expect("a square of the board")
    } else {
        problem.rooted()
    };
    let n = searched.board().squares();
    let mut tour = Vec::with_capacity(n);
    // Building the move graph and ordering the starts take seconds on
    // millions of squares: not once the time is up.
    clock.check()?;
    let moves = MoveGraph::new(searched.board());
    for start in start_squares(&searched, &moves, starts) {
        // Each start builds a graph of the board, so on large boards the
        // starts alone take long.
        clock.check()?;
        let Some(mut graph) = Walk::new(&searched, &moves, start) else {
            continue;
        };
        let flow = graph.walks(clock, keep, &mut |path| {
            tour.clear();
            tour.extend(path[..n].iter().map(|&s| s as usize));
            if reversed {
                tour.reverse();
            }
            if let Some(first) = rotate_to {
                let at = tour.iter().position(|&s| s == first).expect("a tour");
                tour.rotate_left(at);
            }
            on_tour(&tour)
        })?;
        if flow.is_break() {
            break;
        }
    }
    Ok(())
}

/// The same problem read backwards: the end becomes the start, the start
/// the end, and the clue of step t the clue of step N−1−t (open tours).
fn reverse(problem: &Problem) -> Problem {
    let n = problem.board().squares();
    let clues = problem.clues().iter().map(|clue| Clue {
        step: n - 1 - clue.step,
        square: clue.square,
    });
    Problem::new(problem.board().clone())
        .with_start(problem.end())
        .and_then(|p| p.with_end(problem.start()))
        .and_then(|p| p.with_clues(clues))
        .expect("a valid problem reversed is valid")
}

/// The squares to search from, in Warnsdorff's order (fewest moves first).
fn start_squares(problem: &Problem, moves: &MoveGraph, starts: Starts) -> Vec<usize> {
    let board = problem.board();
    if let Some(start) = problem.start() {
        return vec![start];
    }
    if let Some(clue) = problem.clues().first().filter(|clue| clue.step == 0) {
        return vec![clue.square];
    }
    let degree: Vec<usize> = (0..board.squares()).map(|s| moves.degree(s)).collect();
    let mut squares: Vec<usize> = match (problem.is_closed(), problem.end()) {
        // A closed tour starts a move after its end.
        (true, Some(end)) => moves.neighbours(end).iter().map(|&w| w as usize).collect(),
        (closed, _) => {
            let colour = forced_start_colour(board, closed);
            (0..board.squares())
                .filter(|&s| colour.is_none_or(|c| board.colour(s) == c))
                .collect()
        }
    };
    if starts == Starts::Representatives && problem.has_all_board_symmetries() {
        // Reversal maps tours onto tours, so a square with one move, where
        // every tour starts or ends, can be the start; otherwise one square
        // per orbit of the board's symmetries will do.
        if let Some(&end) = squares.iter().find(|&&s| degree[s] == 1) {
            squares = vec![end];
        } else {
            let maps = board.symmetries();
            squares.retain(|&s| maps.iter().all(|map| map[s] >= s));
        }
    }
    squares.sort_by_key(|&s| degree[s]);
    squares
}

/// What a search does with each walk it completes (node numbers, the
/// virtual square last): go on, or stop.
type OnWalk<'a> = dyn FnMut(&[u32]) -> Result<ControlFlow<()>, SearchError> + 'a;

/// The square's squared distance from the board's centre, in half squares.
fn outward(board: &Board, square: usize) -> u64 {
    let Square { file, rank } = board.square(square);
    let df = (2 * file).abs_diff(board.cols() - 1) as u64;
    let dr = (2 * rank).abs_diff(board.rows() - 1) as u64;
    df * df + dr * dr
}

/// Marks a step or square that nothing pins.
const FREE: u32 = u32::MAX;

/// The search graph of one problem: the board's squares, plus for a closed
/// tour a virtual last square joined to the start's neighbours, with every
/// pinned step, and the state of the walk.
pub(super) struct Walk {
    /// The walk's length: the board's squares, or one more for a closed
    /// tour (the virtual square is the last node).
    pub(super) length: usize,
    /// The board's move graph, with the virtual square as the start's twin.
    moves: MoveGraph,
    colour: Vec<bool>,
    /// Each node's [`outward`] distance (the virtual square's is the start's).
    outward: Vec<u64>,
    changes_colour: bool,
    /// Whether candidates are tried in Warnsdorff's order (for finding and
    /// listing tours), or as they come (for counting them).
    pub(super) ordered: bool,
    /// The node pinned to each step, or [`FREE`].
    pinned_at: Vec<u32>,
    /// The step each node is pinned to, or [`FREE`].
    step_of: Vec<u32>,
    /// For each pinned step after the first, its node's distance in moves
    /// from every node; by step.
    reach: Vec<(usize, Vec<u32>)>,
    // The walk.
    visited: Vec<bool>,
    /// Unvisited neighbours of each node.
    free: Vec<u8>,
    /// Unvisited nodes with at most one unvisited neighbour, and with none.
    low: usize,
    zero: usize,
    /// Unvisited nodes of each colour (a1's first).
    left: [usize; 2],
}

/// What the tight squares allow as the next move.
enum Next {
    /// No move: the walk cannot be completed.
    Impossible,
    /// Any move.
    Any,
    /// This square only.
    Only(usize),
    /// One of these two.
    Either(usize, usize),
}

/// The candidates for one move of the walk, best first, and the next to try.
#[derive(Clone, Copy, Default)]
struct Frame {
    candidates: [u32; super::MAX_MOVES],
    len: u8,
    tried: u8,
}

impl Walk {
    /// The graph for the walks of `problem` (whose move graph is `moves`)
    /// from `start`, or `None` when the pins contradict each other (no
    /// walk keeps them all).
    pub(super) fn new(problem: &Problem, moves: &MoveGraph, start: usize) -> Option<Walk> {
        let board = problem.board();
        let n = board.squares();
        let closed = problem.is_closed();
        let length = n + usize::from(closed);
        let mut colour: Vec<bool> = (0..n).map(|s| board.colour(s)).collect();
        let mut outward: Vec<u64> = (0..n).map(|s| outward(board, s)).collect();
        let moves = if closed {
            // The virtual square: after the last square, standing for the start.
            colour.push(board.colour(start));
            outward.push(outward[start]);
            moves.with_twin(start)
        } else {
            moves.clone()
        };
        let mut pinned_at = vec![FREE; length];
        let mut step_of = vec![FREE; length];
        let clues = problem.clues().iter().map(|clue| (clue.step, clue.square));
        let ends = [Some((0, start)), problem.end().map(|end| (n - 1, end))];
        let virtual_last = closed.then_some((n, n));
        for (step, node) in clues.chain(ends.into_iter().flatten()).chain(virtual_last) {
            let (at, of) = (pinned_at[step], step_of[node]);
            if (at != FREE && at as usize != node) || (of != FREE && of as usize != step) {
                return None;
            }
            pinned_at[step] = node as u32;
            step_of[node] = step as u32;
        }
        let mut graph = Walk {
            length,
            moves,
            colour,
            outward,
            changes_colour: board.leaper().changes_colour(),
            ordered: true,
            pinned_at,
            step_of,
            reach: Vec::new(),
            visited: vec![false; length],
            free: vec![0; length],
            low: 0,
            zero: 0,
            left: [0; 2],
        };
        graph.reach = (1..length)
            .filter(|&step| graph.pinned_at[step] != FREE)
            .map(|step| {
                let pinned = graph.pinned_at[step] as usize;
                (step, graph.moves.distances_from(&[pinned]))
            })
            .collect();
        // Every node must be reachable, and each pinned node within reach
        // of the one pinned before it.
        let from_start = graph.moves.distances_from(&[start]);
        if from_start.contains(&UNREACHED) {
            return None;
        }
        let mut before = (0, &from_start);
        for (step, distance) in &graph.reach {
            if distance[graph.pinned_at[before.0] as usize] as usize > step - before.0 {
                return None;
            }
            before = (*step, distance);
        }
        Some(graph)
    }

    fn neighbours(&self, node: usize) -> &[u32] {
        self.moves.neighbours(node)
    }

    /// Clears the walk: nothing visited.
    fn reset(&mut self) {
        self.visited.fill(false);
        self.left = [0; 2];
        for node in 0..self.length {
            self.free[node] = self.neighbours(node).len() as u8;
            self.left[usize::from(self.colour[node])] += 1;
        }
        self.low = self.free.iter().filter(|&&f| f <= 1).count();
        self.zero = self.free.iter().filter(|&&f| f < 1).count();
    }

    fn visit(&mut self, node: usize) {
        self.visited[node] = true;
        self.leave(node);
        for &w in self.moves.neighbours(node) {
            let w = w as usize;
            self.free[w] -= 1;
            if !self.visited[w] {
                match self.free[w] {
                    1 => self.low += 1,
                    0 => self.zero += 1,
                    _ => {}
                }
            }
        }
    }

    fn unvisit(&mut self, node: usize) {
        for &w in self.moves.neighbours(node) {
            let w = w as usize;
            if !self.visited[w] {
                match self.free[w] {
                    1 => self.low -= 1,
                    0 => self.zero -= 1,
                    _ => {}
                }
            }
            self.free[w] += 1;
        }
        self.visited[node] = false;
        self.enter(node);
    }

    /// `node` leaves the unvisited nodes' counts.
    fn leave(&mut self, node: usize) {
        self.low -= usize::from(self.free[node] <= 1);
        self.zero -= usize::from(self.free[node] == 0);
        self.left[usize::from(self.colour[node])] -= 1;
    }

    /// `node` rejoins them.
    fn enter(&mut self, node: usize) {
        self.low += usize::from(self.free[node] <= 1);
        self.zero += usize::from(self.free[node] == 0);
        self.left[usize::from(self.colour[node])] += 1;
    }

    /// Every walk from the start (the node pinned to step 0) through all
    /// nodes that keeps the pins, each handed to `on_walk` (node numbers,
    /// the virtual square last).
    fn walks(
        &mut self,
        clock: &Deadline,
        keep: &mut dyn FnMut(usize, usize) -> bool,
        on_walk: &mut OnWalk<'_>,
    ) -> Result<ControlFlow<()>, SearchError> {
        let start = self.pinned_at[0] as usize;
        self.walks_from(&[start], clock, keep, on_walk)
    }

    /// Every walk through all nodes that begins with `prefix` (nodes after
    /// 0, 1, … moves) and keeps the pins, each handed to `on_walk`; none
    /// when the prefix itself breaks a pin, repeats a node or is no walk.
    pub(super) fn walks_from(
        &mut self,
        prefix: &[usize],
        clock: &Deadline,
        keep: &mut dyn FnMut(usize, usize) -> bool,
        on_walk: &mut OnWalk<'_>,
    ) -> Result<ControlFlow<()>, SearchError> {
        self.reset();
        let mut path: Vec<u32> = Vec::with_capacity(self.length);
        for (step, &node) in prefix.iter().enumerate() {
            if !self.may_enter(&path, step, node) || !keep(step, node) {
                return Ok(ControlFlow::Continue(()));
            }
            self.visit(node);
            path.push(node as u32);
        }
        if path.is_empty() {
            return Ok(ControlFlow::Continue(()));
        }
        if path.len() == self.length {
            return on_walk(&path);
        }
        // The search below the prefix: frames[d] holds the candidates for
        // the move after d moves, and it ends when the prefix's own frame
        // has none left.
        let base = path.len() - 1;
        let mut frames = vec![Frame::default(); self.length];
        frames[base] = self.candidates(&path);
        let mut nodes = 0u64;
        loop {
            let depth = path.len() - 1;
            let frame = &mut frames[depth];
            if frame.tried < frame.len {
                let node = frame.candidates[usize::from(frame.tried)] as usize;
                frame.tried += 1;
                if !keep(depth + 1, node) {
                    continue;
                }
                self.visit(node);
                path.push(node as u32);
                if path.len() == self.length {
                    if on_walk(&path)?.is_break() {
                        return Ok(ControlFlow::Break(()));
                    }
                    path.pop();
                    self.unvisit(node);
                } else {
                    frames[depth + 1] = self.candidates(&path);
                }
                nodes += 1;
                if nodes.is_multiple_of(1 << 14) {
                    clock.check()?;
                }
            } else if depth == base {
                return Ok(ControlFlow::Continue(()));
            } else {
                let node = path.pop().expect("the walk is longer than its prefix") as usize;
                self.unvisit(node);
            }
        }
    }

    /// The number of walks through all nodes that begin with `prefix` and
    /// keep the pins: the search of [`walks_from`](Self::walks_from),
    /// counting instead of listing. A walk one node short is complete in as
    /// many ways as it has candidates, and a state with [`REMEMBERED_LEFT`]
    /// nodes left is looked up in the counter `completions` (keyed with
    /// `start`), or counted and remembered there.
    /// `None` once `stop` is raised.
    pub(super) fn count_from(
        &mut self,
        prefix: &[usize],
        start: u32,
        completions: &impl Memo,
        stop: &Interrupt,
    ) -> Option<u64> {
        self.reset();
        let mut path: Vec<u32> = Vec::with_capacity(self.length);
        let mut visited = 0u128;
        for (step, &node) in prefix.iter().enumerate() {
            if !self.may_enter(&path, step, node) {
                return Some(0);
            }
            self.visit(node);
            path.push(node as u32);
            visited |= 1 << node;
        }
        if path.len() == self.length {
            return Some(1);
        }
        let base = path.len() - 1;
        let mut frames = vec![Frame::default(); self.length];
        // The count when the state at each depth was entered, for those
        // to be remembered.
        let mut found_before = vec![0u64; self.length];
        let remembered_depth = self.length.checked_sub(REMEMBERED_LEFT + 1);
        let mut found = 0u64;
        let last_but_one = self.length - 2;
        if base == last_but_one {
            return Some(u64::from(self.candidates(&path).len));
        }
        frames[base] = self.candidates(&path);
        let mut steps = 0u32;
        loop {
            steps = steps.wrapping_add(1);
            if steps.is_multiple_of(1 << 14) && stop.is_raised() {
                return None;
            }
            let depth = path.len() - 1;
            let frame = &mut frames[depth];
            if frame.tried < frame.len {
                let node = frame.candidates[usize::from(frame.tried)] as usize;
                frame.tried += 1;
                if Some(depth + 1) == remembered_depth {
                    let key = (visited | 1 << node, node as u32, start);
                    if let Some(known) = completions.recall(&key) {
                        found += known;
                        continue;
                    }
                    found_before[depth + 1] = found;
                }
                self.visit(node);
                path.push(node as u32);
                visited |= 1 << node;
                let next = self.candidates(&path);
                if depth + 1 == last_but_one {
                    // Every candidate is a last move.
                    found += u64::from(next.len);
                    frames[depth + 1] = Frame::default();
                } else {
                    frames[depth + 1] = next;
                }
            } else if depth == base {
                return Some(found);
            } else {
                if Some(depth) == remembered_depth {
                    let key = (visited, path[depth], start);
                    completions.remember(key, found - found_before[depth]);
                }
                let node = path.pop().expect("the walk is longer than its prefix") as usize;
                self.unvisit(node);
                visited &= !(1 << node);
            }
        }
    }

    /// Whether the walk `path` may enter `node` at `step` (its length): a
    /// node on the graph, unvisited, a move on from the walk's last node,
    /// and keeping the pins of the step and of the node.
    fn may_enter(&self, path: &[u32], step: usize, node: usize) -> bool {
        let fits = |pin: u32, value: usize| pin == FREE || pin as usize == value;
        step < self.length
            && node < self.length
            && !self.visited[node]
            && fits(self.pinned_at[step], node)
            && fits(self.step_of[node], step)
            && path
                .last()
                .is_none_or(|&here| self.neighbours(here as usize).contains(&(node as u32)))
    }

    /// The moves worth trying from the end of `path`, best first; none when
    /// the walk so far cannot be completed.
    fn candidates(&self, path: &[u32]) -> Frame {
        let mut frame = Frame::default();
        let head = *path.last().expect("a walk has a start") as usize;
        let step = path.len() - 1;
        let left = self.length - path.len();
        if !self.may_continue(head, step, left) {
            return frame;
        }
        let only = match self.tight(head, left) {
            Next::Impossible => return frame,
            Next::Any => [None, None],
            Next::Only(square) => [Some(square), None],
            Next::Either(a, b) => [Some(a), Some(b)],
        };
        let pinned_next = self.pinned_at[step + 1];
        for &c in self.neighbours(head) {
            let c = c as usize;
            if self.visited[c] || (only[0].is_some() && !only.contains(&Some(c))) {
                continue;
            }
            let fits_pin = if pinned_next == FREE {
                self.step_of[c] == FREE
            } else {
                pinned_next as usize == c
            };
            if !fits_pin || (self.free[c] == 0 && left > 1) {
                continue;
            }
            frame.candidates[usize::from(frame.len)] = c as u32;
            frame.len += 1;
        }
        // Warnsdorff's order, with the default tie-breaks of Warnsdorff's
        // rule: fewest unvisited neighbours first, then the fewest onward
        // moves one step further, then farthest from the centre, then the
        // move order (the sort is stable).
        // A count visits every candidate whatever the order, so it skips
        // the ordering, a good part of the search's time
        // (docs/notebook.md, "Search without SAT against SAT").
        if !self.ordered {
            return frame;
        }
        let candidates = &mut frame.candidates[..usize::from(frame.len)];
        candidates.sort_by_key(|&c| {
            let c = c as usize;
            (self.free[c], self.lookahead(c), Reverse(self.outward[c]))
        });
        frame
    }

    /// The fewest unvisited neighbours that an unvisited neighbour of
    /// `node` keeps once `node` is visited.
    fn lookahead(&self, node: usize) -> u8 {
        self.neighbours(node)
            .iter()
            .filter(|&&w| !self.visited[w as usize])
            .map(|&w| self.free[w as usize] - 1)
            .min()
            .unwrap_or(u8::MAX)
    }

    /// What the unvisited squares with few ways in or out say about the
    /// move after `head`, with `left` nodes to go. A square not next to the
    /// head with one way in must be the last, and a neighbour of the head
    /// with at most one other way in or out must be next or last; there is
    /// one last square, the fixed end if there is one.
    fn tight(&self, head: usize, left: usize) -> Next {
        if left == 1 {
            return Next::Any;
        }
        let mut near = [0usize; super::MAX_MOVES];
        let mut len = 0;
        for &w in self.neighbours(head) {
            let w = w as usize;
            if !self.visited[w] && self.free[w] <= 1 {
                if self.free[w] == 0 {
                    // Entered now it is a dead end; later, never.
                    return Next::Impossible;
                }
                near[len] = w;
                len += 1;
            }
        }
        let near = &near[..len];
        let far = self.low - len;
        let end = self.pinned_at[self.length - 1];
        let end = (end != FREE).then_some(end as usize);
        let end_is_far =
            |end: usize| !self.visited[end] && self.free[end] <= 1 && !near.contains(&end);
        let last_fits = match (far, end) {
            (0, _) | (1, None) => true,
            (1, Some(end)) => end_is_far(end),
            _ => false,
        };
        if !last_fits {
            return Next::Impossible;
        }
        if self.zero > 0 {
            // A square no move can enter.
            return Next::Impossible;
        }
        match (near, far, end) {
            // The last square is taken, or fixed elsewhere: the tight
            // neighbour must be next.
            ([only], 1, _) => Next::Only(*only),
            ([only], _, Some(end)) if *only != end => Next::Only(*only),
            ([] | [_], _, _) => Next::Any,
            // One is next and the other last, which must be the end if fixed.
            ([a, b], 0, Some(end)) if *a == end => Next::Only(*b),
            ([a, b], 0, Some(end)) if *b == end => Next::Only(*a),
            ([a, b], 0, None) => Next::Either(*a, *b),
            _ => Next::Impossible,
        }
    }

    /// Whether colours and pinned steps still allow a walk on from `head`
    /// at `step` with `left` nodes to go.
    fn may_continue(&self, head: usize, step: usize, left: usize) -> bool {
        let here = usize::from(self.colour[head]);
        let colours_fit = if self.changes_colour {
            self.left[1 - here] == left.div_ceil(2) && self.left[here] == left / 2
        } else {
            self.left[1 - here] == 0
        };
        colours_fit
            && self
                .reach
                .iter()
                .filter(|(pinned, _)| *pinned > step)
                .all(|(pinned, distance)| distance[head] as usize <= pinned - step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(problem: &Problem) -> usize {
        let mut found = 0;
        each_tour_keeping(
            problem,
            &Deadline::new(None),
            |_, _| true,
            |_| {
                found += 1;
                Ok(ControlFlow::Continue(()))
            },
        )
        .unwrap();
        found
    }

    #[test]
    fn counts_the_known_small_boards() {
        let open = |rows, cols| Problem::new(Board::new(rows, cols).unwrap());
        assert_eq!(count(&open(3, 4)), 16);
        assert_eq!(count(&open(5, 5)), 1728);
        assert_eq!(count(&open(5, 5).with_start(Some(0)).unwrap()), 304);
        // 5x6 closed: 8 cycles, each twice from a1 (the rotations are count's job).
        assert_eq!(count(&open(5, 6).closed(true)), 16);
        assert_eq!(count(&open(4, 4)), 0);
    }

    #[test]
    fn proves_there_is_none_where_colours_forbid() {
        let problem = Problem::new(Board::new(5, 5).unwrap()).closed(true);
        assert_eq!(backtrack(&problem, None).unwrap(), None);
    }
}
