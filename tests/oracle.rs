//! The SAT pipeline agrees with an independent brute-force search on every
//! small board, and every tour it finds is a tour by the oracle's own check.

mod common;

use knightsat::board::Board;
use knightsat::encode::{Amo, Options};
use knightsat::solve::{solve_in_process, Outcome};

/// Solves every board with ROWS <= COLS and ROWS*COLS <= 30 under the given
/// options and compares with the oracle; reports every disagreement at once.
fn agree_on_small_boards(closed: bool, max_clause_len: Option<usize>, amo: Amo) {
    agree_with(closed, max_clause_len, amo, true);
}

fn agree_with(closed: bool, max_clause_len: Option<usize>, amo: Amo, predecessor: bool) {
    let mut failures = Vec::new();
    for (rows, cols) in common::small_boards(30) {
        for start in [None, Some(0)] {
            let mut options = Options::new(Board::new(rows, cols).unwrap());
            options.closed = closed;
            options.start = start;
            options.max_clause_len = max_clause_len;
            options.amo = amo;
            options.predecessor = predecessor;
            let expected = common::tour_exists(rows, cols, closed, start);
            let case = format!("{rows}x{cols} closed={closed} start={start:?} split={max_clause_len:?} amo={amo} predecessor={predecessor}");
            match solve_in_process(&options) {
                Ok(Outcome::Tour(tour)) => {
                    if !expected {
                        failures.push(format!(
                            "{case}: SAT found a tour the oracle says cannot exist"
                        ));
                    }
                    if !common::is_tour(rows, cols, closed, &tour.squares)
                        || start.is_some_and(|s| tour.squares[0] != s)
                    {
                        failures.push(format!("{case}: invalid tour {:?}", tour.names()));
                    }
                }
                Ok(Outcome::NoTour) if expected => {
                    failures.push(format!("{case}: SAT says no tour, the oracle found one"))
                }
                Ok(Outcome::NoTour) => {}
                Err(error) => failures.push(format!("{case}: {error}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn open_tours_agree_with_the_oracle() {
    agree_on_small_boards(false, None, Amo::Pairwise);
}

#[test]
fn closed_tours_agree_with_the_oracle() {
    agree_on_small_boards(true, None, Amo::Pairwise);
}

#[test]
fn open_tours_with_split_clauses_agree_with_the_oracle() {
    agree_on_small_boards(false, Some(3), Amo::Pairwise);
}

#[test]
fn closed_tours_with_split_clauses_agree_with_the_oracle() {
    agree_on_small_boards(true, Some(3), Amo::Pairwise);
}

#[test]
fn sequential_counter_agrees_with_the_oracle() {
    agree_on_small_boards(false, None, Amo::Sequential);
    agree_on_small_boards(true, Some(3), Amo::Sequential);
}

#[test]
fn the_plain_encoding_without_predecessor_clauses_agrees_with_the_oracle() {
    agree_with(false, None, Amo::Pairwise, false);
    agree_with(true, Some(3), Amo::Pairwise, false);
}

#[test]
fn oracle_knows_the_classic_small_cases() {
    // Guards the oracle itself with facts from the literature: no tour on
    // 3x3 or 4x4, open tours on 3x4 and 5x5, no closed tour on 5x5 (odd) or 4xn.
    assert!(!common::tour_exists(3, 3, false, None));
    assert!(!common::tour_exists(4, 4, false, None));
    assert!(common::tour_exists(3, 4, false, None));
    assert!(common::tour_exists(5, 5, false, Some(0)));
    assert!(!common::tour_exists(5, 5, true, Some(0)));
    assert!(!common::tour_exists(4, 5, true, Some(0)));
    assert!(common::tour_exists(5, 6, true, Some(0)));
    // 5x5 has 304 open tours from a corner (OEIS A165134 counts 1728 directed
    // open tours in all, 304 of them from each corner).
    assert_eq!(common::count_from(5, 5, false, 0, u64::MAX), 304);
}
