//! What the theorems say about plain rectangular knight boards, so `solve`
//! can answer at once where a tour cannot exist.

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
