//! The SAT pipeline agrees with an independent brute-force search on every
//! small board, under every encoding option, and every tour it finds is a
//! tour by the oracle's own check.

use crate::common;

use common::adapters::Variant;
use common::sat::{solve, solve_with_varisat};
use knightsat::encoding::{EncodingConfig, TimeIndexedConfig};
use knightsat::error::SearchError;
use knightsat::solve::Outcome;

/// Solves every board with ROWS <= COLS and min..=max squares, open and
/// closed, with no start and a corner start, under each variant, and
/// compares with the oracle; reports every disagreement at once.
fn agree(min_squares: usize, max_squares: usize, variants: &[Variant]) {
    let mut failures = Vec::new();
    let boards = common::small_boards(max_squares)
        .into_iter()
        .filter(|(r, c)| r * c >= min_squares);
    for (rows, cols) in boards {
        for closed in [false, true] {
            for start in [None, Some(0)] {
                let expected = common::tour_exists(rows, cols, closed, start);
                for (index, variant) in variants.iter().enumerate() {
                    // The built-in solvers take the variants in turn, the
                    // other way round on the next board (CaDiCaL alone
                    // from 25 squares: `taking_turns`).
                    let backend = &common::sat::taking_turns(index + rows + cols, rows * cols);
                    let problem = common::adapters::plain_problem(rows, cols, closed, start);
                    let case = format!(
                        "{rows}x{cols} closed={closed} start={start:?} {variant:?} {}",
                        backend.name()
                    );
                    let request = common::sat::request(*variant, backend);
                    match solve(&problem, &request).map(|solved| solved.outcome) {
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
                            failures
                                .push(format!("{case}: SAT says no tour, the oracle found one"));
                        }
                        Ok(Outcome::NoTour) => {}
                        Err(error) => failures.push(format!("{case}: {error}")),
                    }
                }
            }
        }
    }
    common::assert_none(&failures);
}

#[test]
fn every_option_combination_agrees_with_the_oracle_up_to_20_squares() {
    agree(1, 20, &common::adapters::all_variants());
}

#[test]
fn every_option_combination_agrees_with_the_oracle_from_21_to_24_squares() {
    agree(21, 24, &common::adapters::all_variants());
}

// 25 to 30 squares in three tests of 15 to 35 s each (dev profile), so
// that the test threads share them and none is left running alone at the
// end (28 to 30 squares in one test took a minute).
#[test]
fn every_option_combination_agrees_with_the_oracle_from_25_to_27_squares() {
    agree(25, 27, &common::adapters::all_variants());
}

#[test]
fn every_option_combination_agrees_with_the_oracle_on_28_and_29_squares() {
    agree(28, 29, &common::adapters::all_variants());
}

#[test]
fn every_option_combination_agrees_with_the_oracle_on_30_squares() {
    agree(30, 30, &common::adapters::all_variants());
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
    // 5x5 has 1728 directed open tours (OEIS A165134), 304 from each corner.
    assert_eq!(common::count_from(5, 5, false, 0, u64::MAX), 304);
    assert_eq!(common::count_tours(5, 5, false, None), 1728);
}

#[test]
fn block_schedules_only_ever_yield_real_tours() {
    // A block schedule restricts the search, so it may lose tours; whatever
    // it finds must still be a tour, starting where asked.
    let mut found = 0;
    for (rows, cols) in [(5, 5), (5, 6), (6, 6), (6, 7), (7, 8), (8, 8)] {
        for blocks in [(1, 2), (2, 1), (2, 2)] {
            for closed in [false, true] {
                let problem = common::adapters::plain_problem(rows, cols, closed, Some(0));
                let config = EncodingConfig::from(TimeIndexedConfig {
                    blocks: Some(blocks),
                    ..TimeIndexedConfig::default()
                });
                match solve_with_varisat(&problem, &config) {
                    Ok(Outcome::Tour(tour)) => {
                        assert!(
                            common::is_tour(rows, cols, closed, &tour.squares),
                            "{problem:?} {config:?}: {:?}",
                            tour.names()
                        );
                        assert_eq!(tour.squares[0], 0);
                        found += 1;
                    }
                    // None that follows the schedule proves nothing, so it
                    // is never "no tour" (it once was, exit status 20).
                    Err(knightsat::Error::Search(SearchError::NoneWithin { restriction })) => {
                        assert_eq!(
                            restriction,
                            format!("the block schedule {}x{}", blocks.0, blocks.1)
                        );
                    }
                    other => panic!("{problem:?} {config:?}: {other:?}"),
                }
            }
        }
    }
    // Small blocks are often too small to tour; some do (5 of these 36 today).
    assert!(
        found > 0,
        "no block schedule found a tour: the test checked nothing"
    );
}
