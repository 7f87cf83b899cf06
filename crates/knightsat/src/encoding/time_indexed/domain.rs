//! Pruning: which x(t, s) can be true in some tour, worked out before any
//! clause is written. Every pruning here is sound: it removes no tour
//! (or, for symmetry breaking, keeps at least one tour of every orbit),
//! except the two the configuration asks for by name to restrict the
//! search, the block schedule and the corridor around the clues.
//!
//! Pruned variables keep their number but occur in no clause; a solver may
//! give them any value (`MiniSat` leaves them out of its model), and decoding
//! reads only live variables.

use super::TimeIndexedConfig;
use crate::graph::MoveGraph;
use crate::model::board::Board;
use crate::model::problem::{Clue, Problem};

/// The live x variables of a problem under a configuration.
#[derive(Clone, Debug)]
pub struct Domain {
    squares: usize,
    /// `live[t * N + s]`: whether x(t, s) may be true.
    live: Vec<bool>,
}

impl Domain {
    /// Works out the pruning `config` asks for on the board's move graph.
    ///
    /// The start, end and clues restrict their steps always (they are
    /// constraints, not pruning); parity and reachability prune further when
    /// asked.
    pub(crate) fn new(problem: &Problem, config: &TimeIndexedConfig, graph: &MoveGraph) -> Domain {
        let board = problem.board();
        let n = board.squares();
        let mut domain = Domain {
            squares: n,
            live: vec![true; n * n],
        };
        // A closed tour turned to start on a1 keeps to a block schedule
        // only where a1 has a move into the last block: under one, any
        // square may start it (the schedule keeps it to the first block),
        // and the tour found is turned to a1 when decoded.
        let starts = if config.blocks.is_some() && problem.start_fixed_by_default() {
            (0..n).collect()
        } else {
            problem.start_squares(config.symmetry_breaking)
        };
        for step_zero_dead in (0..n).filter(|s| !starts.contains(s)) {
            domain.live[step_zero_dead] = false;
        }
        for &Clue { step, square } in problem.clues() {
            domain.pin(step, square);
        }
        if let Some(blocks) = config.blocks {
            let window = block_windows(board, blocks);
            domain.retain(|t, s| window[s].contains(&t));
        }
        if config.parity {
            let counts = ColourCounts::of(board);
            if counts.forbid_a_tour(problem) {
                domain.retain(|_, _| false);
            } else if let Some(start_colour) = start_colour(problem, &starts, counts) {
                let flips = board.leaper().changes_colour();
                domain.retain(|t, s| board.colour(s) == start_colour ^ (flips && t % 2 == 1));
            }
        }
        if config.reachability && dead_ends_forbid_a_tour(problem, graph) {
            domain.retain(|_, _| false);
        }
        if config.reachability {
            for (step, squares) in anchors(problem, starts) {
                let distance = graph.distances_from(&squares);
                domain.retain(|t, s| distance[s] as usize <= moves_between(problem, t, step));
            }
        }
        if let Some(slack) = config.corridor {
            keep_to_corridor(&mut domain, problem, graph, slack);
        }
        domain
    }

    /// Keeps x(step, square) and kills every other square at `step` and
    /// every other step on `square`.
    fn pin(&mut self, step: usize, square: usize) {
        let n = self.squares;
        let keep = self.live[step * n + square];
        for other in 0..n {
            self.live[step * n + other] = false;
            self.live[other * n + square] = false;
        }
        self.live[step * n + square] = keep;
    }

    fn retain(&mut self, keep: impl Fn(usize, usize) -> bool) {
        for t in 0..self.squares {
            for s in 0..self.squares {
                let live = &mut self.live[t * self.squares + s];
                *live = *live && keep(t, s);
            }
        }
    }

    /// Whether x(step, square) may be true.
    pub(crate) fn is_live(&self, step: usize, square: usize) -> bool {
        self.live[step * self.squares + square]
    }

    /// Number of live x variables.
    pub(crate) fn live_count(&self) -> usize {
        self.live.iter().filter(|&&live| live).count()
    }
}

/// The block schedule: the board is cut into `bands.0` bands of ranks and
/// `bands.1` bands of files (sizes as even as possible), and the blocks are
/// toured one after another in snake order (the bottom band left to right,
/// the next right to left, …), so consecutive blocks are neighbours. Returns
/// for each square the window of steps during which its block is toured.
pub(crate) fn block_windows(board: &Board, bands: (usize, usize)) -> Vec<std::ops::Range<usize>> {
    let band_of = |index: usize, size: usize, count: usize| index * count / size;
    let (rows, cols) = (board.rows(), board.cols());
    let mut block_size = vec![0usize; bands.0 * bands.1];
    let order = |rank_band: usize, file_band: usize| {
        let along = if rank_band.is_multiple_of(2) {
            file_band
        } else {
            bands.1 - 1 - file_band
        };
        rank_band * bands.1 + along
    };
    let block_of = |square: usize| {
        let s = board.square(square);
        order(
            band_of(s.rank, rows, bands.0),
            band_of(s.file, cols, bands.1),
        )
    };
    for square in 0..board.squares() {
        block_size[block_of(square)] += 1;
    }
    let mut first_step = vec![0usize; block_size.len()];
    for block in 1..block_size.len() {
        first_step[block] = first_step[block - 1] + block_size[block - 1];
    }
    (0..board.squares())
        .map(|square| {
            let block = block_of(square);
            first_step[block]..first_step[block] + block_size[block]
        })
        .collect()
}

/// The corridor around the clues: kills x(t, s) for a step t strictly
/// between two consecutive clues a and b (by step) unless the detour the
/// pair makes through s, dist(a, s) + dist(s, b) − dist(a, b), is within
/// `slack` moves of the least detour through s of any consecutive pair
/// that has the moves to pass s. Clue squares keep their own step.
///
/// Not sound, on purpose: a tour may wander further, and then the
/// formula misses it. Between clues every square is reachable in many
/// ways, and the whole formula spends its search on paths that swap
/// squares between distant parts of the tour; the corridor hands each
/// square to the parts of the tour that pass close by, so the formula is a
/// fraction of the size (on 50x50 with 100 clues, 241,000 live x(t, s) at
/// slack 4 against 1.16 million) and a solver finds a tour sooner where
/// one keeps to it. A route that uses it must not take "no tour" from it
/// as an answer (docs/notebook.md, "A corridor around the clues").
fn keep_to_corridor(domain: &mut Domain, problem: &Problem, graph: &MoveGraph, slack: u32) {
    let clues = problem.clues();
    let n = graph.nodes();
    let is_clue = {
        let mut is_clue = vec![false; n];
        for clue in clues {
            is_clue[clue.square] = true;
        }
        is_clue
    };
    // Each consecutive pair's detours, one pair at a time (two searches
    // a pair), so that memory stays at a few vectors however many clues.
    let detours = |pair: &[Clue]| -> Vec<u32> {
        let (a, b) = (pair[0], pair[1]);
        let from_a = graph.distances_from(&[a.square]);
        let from_b = graph.distances_from(&[b.square]);
        let moves = u32::try_from(b.step - a.step).unwrap_or(u32::MAX);
        let direct = from_a[b.square];
        (0..n)
            .map(|s| {
                let through = from_a[s].saturating_add(from_b[s]);
                if through <= moves {
                    through - direct
                } else {
                    u32::MAX
                }
            })
            .collect()
    };
    let mut least = vec![u32::MAX; n];
    for pair in clues.windows(2) {
        for (least, detour) in least.iter_mut().zip(detours(pair)) {
            *least = (*least).min(detour);
        }
    }
    for pair in clues.windows(2) {
        let detour = detours(pair);
        for step in pair[0].step + 1..pair[1].step {
            for square in (0..n).filter(|&s| !is_clue[s]) {
                if detour[square] > least[square].saturating_add(slack) {
                    domain.live[step * domain.squares + square] = false;
                }
            }
        }
    }
}

/// The steps at which the tour's square is known, with the squares it may
/// be on then: the candidate starts at step 0, the end, each clue.
fn anchors(problem: &Problem, starts: Vec<usize>) -> Vec<(usize, Vec<usize>)> {
    let last = problem.board().squares() - 1;
    let mut anchors = vec![(0, starts)];
    anchors.extend(problem.end().map(|end| (last, vec![end])));
    anchors.extend(
        problem
            .clues()
            .iter()
            .map(|clue| (clue.step, vec![clue.square])),
    );
    anchors
}

/// The fewest moves the tour makes between steps `a` and `b`: |a − b| along
/// an open tour, either way round a closed one.
fn moves_between(problem: &Problem, a: usize, b: usize) -> usize {
    let along = a.abs_diff(b);
    if problem.is_closed() {
        along.min(problem.board().squares() - along)
    } else {
        along
    }
}

/// Whether the move graph's dead ends rule out every tour: a tour of more
/// than one square enters and leaves every square but its ends, so a square
/// with no move, more than two with one move (an open tour), or any with
/// one move (a closed tour of more than two squares: two squares close
/// through their one move) leaves none. Cheap, and it settles boards like
/// 1xN or 2xN for the knight before any clause is written.
fn dead_ends_forbid_a_tour(problem: &Problem, graph: &MoveGraph) -> bool {
    let n = graph.nodes();
    if n < 2 {
        return false;
    }
    let ends = (0..n).filter(|&s| graph.degree(s) < 2).count();
    let allowed = if problem.is_closed() && n > 2 { 0 } else { 2 };
    (0..n).any(|s| graph.degree(s) == 0) || ends > allowed
}

/// How many squares the board has of a1's colour and of the other.
#[derive(Clone, Copy)]
struct ColourCounts {
    a1s: usize,
    others: usize,
}

impl ColourCounts {
    fn of(board: &Board) -> ColourCounts {
        let others = (0..board.squares()).filter(|&s| board.colour(s)).count();
        ColourCounts {
            a1s: board.squares() - others,
            others,
        }
    }

    /// Whether the counts rule out every tour: a colour-changing leaper
    /// alternates colours, so an open tour needs the counts within one of
    /// each other and a closed tour needs them equal; a leaper that keeps
    /// its colour cannot tour a board with both colours.
    fn forbid_a_tour(self, problem: &Problem) -> bool {
        let ColourCounts { a1s, others } = self;
        match (
            problem.board().leaper().changes_colour(),
            problem.is_closed(),
        ) {
            (true, false) => a1s.abs_diff(others) > 1,
            (true, true) => a1s != others,
            (false, _) => a1s > 0 && others > 0,
        }
    }
}

/// The colour the tour starts on, when it is forced: all candidate starts
/// share a colour; or the colour is known at some other step (end, clue)
/// and the leaper's colour changes tell it back; or the counts of squares
/// of each colour decide it (an open tour of a colour-changing leaper starts
/// on the colour with one square more; a leaper that keeps its colour
/// starts on the only colour there is).
fn start_colour(problem: &Problem, starts: &[usize], counts: ColourCounts) -> Option<bool> {
    let board = problem.board();
    let n = board.squares();
    let flips = board.leaper().changes_colour();
    if let Some(&first) = starts.first() {
        if starts
            .iter()
            .all(|&s| board.colour(s) == board.colour(first))
        {
            return Some(board.colour(first));
        }
    }
    let known = problem.end().map(|end| (n - 1, end));
    if let Some((step, square)) = known
        .into_iter()
        .chain(problem.clues().iter().map(|clue| (clue.step, clue.square)))
        .next()
    {
        return Some(board.colour(square) ^ (flips && step % 2 == 1));
    }
    let ColourCounts { a1s, others } = counts;
    match (flips, problem.is_closed()) {
        (true, false) if a1s == others + 1 => Some(false),
        (true, false) if others == a1s + 1 => Some(true),
        (false, _) if others == 0 => Some(false),
        (false, _) if a1s == 0 => Some(true),
        _ => None,
    }
}
