//! Pruning: which x(t, s) can be true in some tour, worked out before any
//! clause is written. Every restriction here is sound: it removes no tour
//! (or, for symmetry breaking, keeps at least one tour of every orbit).
//!
//! Pruned variables keep their number but occur in no clause; a solver may
//! give them any value (MiniSat leaves them out of its model), and decoding
//! reads only live variables.

use std::collections::VecDeque;

use super::Options;
use crate::board::Board;

/// The live x variables for a set of options.
#[derive(Clone, Debug)]
pub struct Domain {
    squares: usize,
    /// `live[t * N + s]`: whether x(t, s) may be true.
    live: Vec<bool>,
}

impl Domain {
    /// Works out the pruning the options ask for on the board's knight graph.
    pub fn new(options: &Options, graph: &[Vec<usize>]) -> Domain {
        let n = options.board.squares();
        let mut domain = Domain {
            squares: n,
            live: vec![true; n * n],
        };
        let starts = start_squares(options);
        for step_zero_dead in (0..n).filter(|s| !starts.contains(s)) {
            domain.live[step_zero_dead] = false;
        }
        if let Some(blocks) = options.blocks {
            let window = block_windows(&options.board, blocks);
            domain.retain(|t, s| window[s].contains(&t));
        }
        if options.parity {
            if let Some(start_colour) = start_colour(options, &starts) {
                domain.retain(|t, s| colour(&options.board, s) == start_colour ^ (t % 2 == 1));
            }
        }
        if options.reachability {
            let from_start = distances(graph, &starts);
            domain.retain(|t, s| from_start[s] <= t);
            if options.closed && options.effective_start().is_some() {
                // The knight must get back to the start in the remaining N − t moves.
                domain.retain(|t, s| from_start[s] <= n - t);
            }
            if let Some(end) = options.end {
                let to_end = distances(graph, &[end]);
                domain.retain(|t, s| to_end[s] <= n - 1 - t);
            }
        }
        domain
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
    pub fn is_live(&self, step: usize, square: usize) -> bool {
        self.live[step * self.squares + square]
    }

    /// Number of live x variables.
    pub fn live_count(&self) -> usize {
        self.live.iter().filter(|&&live| live).count()
    }
}

/// The block schedule: the board is cut into `bands.0` bands of ranks and
/// `bands.1` bands of files (sizes as even as possible), and the blocks are
/// toured one after another in snake order (the bottom band left to right,
/// the next right to left, …), so consecutive blocks are neighbours. Returns
/// for each square the window of steps during which its block is toured.
pub fn block_windows(board: &Board, bands: (usize, usize)) -> Vec<std::ops::Range<usize>> {
    let band_of = |index: usize, size: usize, count: usize| index * count / size;
    let (rows, cols) = (board.rows(), board.cols());
    let mut block_size = vec![0usize; bands.0 * bands.1];
    let order = |rank_band: usize, file_band: usize| {
        let along = if rank_band % 2 == 0 {
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

/// The squares the tour may start on: the fixed start; with symmetry
/// breaking for an open tour with neither end given, one square per orbit of
/// the board's symmetries (of a1's colour where the orbit has one, so that
/// the start's colour is known); otherwise every square.
pub fn start_squares(options: &Options) -> Vec<usize> {
    let board = &options.board;
    if let Some(start) = options.effective_start() {
        return vec![start];
    }
    if !(options.symmetry_breaking && !options.closed && options.end.is_none()) {
        return (0..board.squares()).collect();
    }
    let symmetries = board.symmetries();
    let a1_colour = colour(board, 0);
    let mut representatives: Vec<usize> = (0..board.squares())
        .map(|s| {
            let orbit: Vec<usize> = symmetries.iter().map(|map| map[s]).collect();
            let same_colour = orbit
                .iter()
                .copied()
                .filter(|&o| colour(board, o) == a1_colour)
                .min();
            same_colour.unwrap_or_else(|| *orbit.iter().min().expect("the identity is a symmetry"))
        })
        .collect();
    representatives.sort_unstable();
    representatives.dedup();
    representatives
}

/// The colour the tour starts on, when it is forced: all candidate starts
/// share a colour, or the board has an odd number of squares (a knight
/// alternates colours, so the start is on the majority colour, a1's), or the
/// end is fixed.
fn start_colour(options: &Options, starts: &[usize]) -> Option<bool> {
    let board = &options.board;
    let n = board.squares();
    if let Some(&first) = starts.first() {
        if starts
            .iter()
            .all(|&s| colour(board, s) == colour(board, first))
        {
            return Some(colour(board, first));
        }
    }
    if let Some(end) = options.end {
        return Some(colour(board, end) ^ ((n - 1) % 2 == 1));
    }
    (n % 2 == 1 && !options.closed).then(|| colour(board, 0))
}

/// The square's colour: `false` for a1's.
pub fn colour(board: &Board, square: usize) -> bool {
    let s = board.square(square);
    (s.file + s.rank) % 2 == 1
}

/// Knight-move distance from the nearest of `sources` to every square
/// (`usize::MAX` where unreachable).
pub fn distances(graph: &[Vec<usize>], sources: &[usize]) -> Vec<usize> {
    let mut distance = vec![usize::MAX; graph.len()];
    let mut queue = VecDeque::new();
    for &source in sources {
        distance[source] = 0;
        queue.push_back(source);
    }
    while let Some(square) = queue.pop_front() {
        for &next in &graph[square] {
            if distance[next] == usize::MAX {
                distance[next] = distance[square] + 1;
                queue.push_back(next);
            }
        }
    }
    distance
}
