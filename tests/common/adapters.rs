//! Adapters from the oracle's values to the library's: the library's board
//! for an oracle [`Shape`], its problem for a shape and [`Demands`] or for a
//! plain board, and the encoding options to sweep. Unlike the oracle beside
//! it (`tests/common/mod.rs`), which never calls the library, these build
//! library values, so that a test can put the same question to both.

use super::{Demands, Shape};

impl Shape {
    /// The library's board for this shape.
    pub fn board(&self) -> knightsat::model::board::Board {
        let names: Vec<String> = self
            .holes
            .iter()
            .map(|&cell| {
                format!(
                    "{}{}",
                    (b'a' + (cell % self.cols) as u8) as char,
                    cell / self.cols + 1
                )
            })
            .collect();
        knightsat::model::board::Board::new(self.rows, self.cols)
            .unwrap()
            .with_holes(&names)
            .unwrap()
            .with_leaper(
                knightsat::model::board::Leaper::new(self.leaper.0, self.leaper.1).unwrap(),
            )
    }
}

/// The library's problem for `shape` and `demands`. With `as_ends`, a
/// step-0 clue becomes the start and a step-(N−1) clue the end, so that
/// both ways of saying them are tested; the rest stay clues.
pub fn problem_of(
    shape: &Shape,
    demands: &Demands,
    as_ends: bool,
) -> knightsat::model::problem::Problem {
    let n = shape.squares();
    let (mut start, mut end, mut clues) = (None, None, Vec::new());
    for &(step, square) in &demands.clues {
        match step {
            0 if as_ends => start = Some(square),
            t if as_ends && t == n - 1 => end = Some(square),
            _ => clues.push(knightsat::model::problem::Clue { step, square }),
        }
    }
    knightsat::model::problem::Problem::new(shape.board())
        .closed(demands.closed)
        .with_start(start)
        .and_then(|problem| problem.with_end(end))
        .and_then(|problem| problem.with_clues(clues))
        .unwrap()
}

/// The library's problem for a plain knight board, open or closed, with an
/// optional start.
pub fn plain_problem(
    rows: usize,
    cols: usize,
    closed: bool,
    start: Option<usize>,
) -> knightsat::model::problem::Problem {
    knightsat::model::problem::Problem::new(
        knightsat::model::board::Board::new(rows, cols).unwrap(),
    )
    .closed(closed)
    .with_start(start)
    .unwrap()
}

/// One choice of every encoding option that changes the formula but must
/// not change which tours it has: a time-indexed configuration without
/// blocks (which may lose tours).
pub type Variant = knightsat::encoding::TimeIndexedConfig;

/// Every combination: 5 at-most-one encodings x split or not x 2^4 switches,
/// with the move variables on in half of the switch combinations (on where
/// an odd number of the four is on), so that each switch meets both.
pub fn all_variants() -> Vec<Variant> {
    let mut all = Vec::new();
    for amo in knightsat::encoding::Amo::ALL {
        for max_clause_len in [None, Some(3)] {
            for bits in 0..16u8 {
                all.push(Variant {
                    amo,
                    max_clause_len,
                    predecessor: bits & 1 != 0,
                    parity: bits & 2 != 0,
                    reachability: bits & 4 != 0,
                    symmetry_breaking: bits & 8 != 0,
                    moves: bits.count_ones() % 2 == 1,
                    ..Variant::default()
                });
            }
        }
    }
    all
}

/// A cover of the options for larger boards: the defaults with each
/// at-most-one encoding, each switch off alone, split clauses, and the naive
/// encoding with and without split clauses.
pub fn key_variants() -> Vec<Variant> {
    let default = Variant::default();
    let naive = Variant::naive();
    let mut variants: Vec<Variant> = knightsat::encoding::Amo::ALL
        .iter()
        .map(|&amo| Variant { amo, ..default })
        .collect();
    variants.extend([
        Variant {
            predecessor: false,
            ..default
        },
        Variant {
            moves: false,
            ..default
        },
        Variant {
            parity: false,
            ..default
        },
        Variant {
            reachability: false,
            ..default
        },
        Variant {
            symmetry_breaking: false,
            ..default
        },
        Variant {
            max_clause_len: Some(3),
            ..default
        },
        naive,
        Variant {
            max_clause_len: Some(3),
            ..naive
        },
    ]);
    variants
}
