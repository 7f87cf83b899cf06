//! What the theorems say about plain rectangular knight boards, so `solve`
//! can answer at once where a tour cannot exist.

use crate::model::board::Leaper;
use crate::model::problem::Problem;

/// Schwenk (1991), "Which rectangular chessboards have a knight's tour?",
/// Mathematics Magazine 64(5): for m ≤ n, the m x n board has a closed tour
/// unless m and n are both odd, or m ∈ {1, 2, 4}, or m = 3 and n ∈ {4, 6, 8}.
pub fn closed_tour_exists(rows: usize, cols: usize) -> bool {
    let (m, n) = (rows.min(cols), rows.max(cols));
    !((m % 2 == 1 && n % 2 == 1) || matches!(m, 1 | 2 | 4) || (m == 3 && matches!(n, 4 | 6 | 8)))
}

/// The classification of rectangular boards with open tours (Conrad,
/// Hindrichs, Morsy and Wegener 1994; Cull and De Curtins 1978): for m ≤ n,
/// there is an open tour on 1x1, 3x4, 3xn with n ≥ 7, 4xn with n ≥ 5, and
/// m x n with 5 ≤ m; on no other board.
pub fn open_tour_exists(rows: usize, cols: usize) -> bool {
    let (m, n) = (rows.min(cols), rows.max(cols));
    match m {
        1 => n == 1,
        2 => false,
        3 => n == 4 || n >= 7,
        4 => n >= 5,
        _ => true,
    }
}

/// When a theorem settles that `problem` has no tour, the theorem's
/// statement; `None` when a search is needed. Theorems apply only to the
/// knight on plain rectangular boards (no holes) with no start, end or clue
/// given (the start a closed tour gets by default loses no tour, so it does
/// not count as given).
pub fn no_tour_because(problem: &Problem) -> Option<&'static str> {
    let board = problem.board();
    if problem.is_anchored() || board.has_holes() || board.leaper() != Leaper::KNIGHT {
        return None;
    }
    let (rows, cols) = (board.rows(), board.cols());
    let closed = problem.is_closed();
    if closed && !closed_tour_exists(rows, cols) {
        Some("Schwenk's theorem (1991): an m x n board, m <= n, has no closed tour when m and n are both odd, m is 1, 2 or 4, or m = 3 and n is 4, 6 or 8")
    } else if !closed && !open_tour_exists(rows, cols) {
        Some("the classification of open tours (Conrad et al. 1994): an m x n board, m <= n, has an open tour only if it is 1x1, 3x4, 3xn with n >= 7, 4xn with n >= 5, or m >= 5")
    } else {
        None
    }
}
