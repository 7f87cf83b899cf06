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

/// A closed tour with no start given may begin on any square of the first
/// block: turned to start on a1 it keeps to the schedule only where a1 has
/// a move into the last block. On 6x12 in 1x2 blocks a1's moves all stay
/// in its own block, yet tours from f1 keep to the schedule; a closed
/// search with no start once found none there (exit 3). Whatever start the
/// schedule takes, the tour comes back turned to start on a1, and a
/// schedule kept from a1 is kept with no start too.
#[test]
fn a_closed_block_schedule_with_no_start_may_begin_anywhere_in_the_first_block() {
    let schedule = |blocks| {
        EncodingConfig::from(TimeIndexedConfig {
            blocks: Some(blocks),
            ..TimeIndexedConfig::default()
        })
    };
    let found = |problem: &knightsat::model::problem::Problem, blocks| match solve_with_varisat(
        problem,
        &schedule(blocks),
    ) {
        Ok(Outcome::Tour(tour)) => Some(tour),
        Err(knightsat::Error::Search(SearchError::NoneWithin { .. })) => None,
        other => panic!("{problem:?} {blocks:?}: {other:?}"),
    };
    let f1 = 5;
    let from_f1 = common::adapters::plain_problem(6, 12, true, Some(f1));
    let tour = found(&from_f1, (1, 2)).expect("a closed tour from f1 keeps to 1x2 blocks");
    assert!(common::is_tour(6, 12, true, &tour.squares));
    let from_a1 = common::adapters::plain_problem(6, 12, true, Some(0));
    assert!(
        found(&from_a1, (1, 2)).is_none(),
        "a1 cannot close 1x2 blocks"
    );
    let mut boards = vec![(6, 12, (1, 2)), (10, 10, (2, 1))];
    for (rows, cols) in [(5, 6), (6, 6), (6, 7), (7, 8), (8, 8)] {
        for blocks in [(1, 2), (2, 1), (2, 2)] {
            boards.push((rows, cols, blocks));
        }
    }
    for (rows, cols, blocks) in boards {
        let no_start = common::adapters::plain_problem(rows, cols, true, None);
        let from_a1 = common::adapters::plain_problem(rows, cols, true, Some(0));
        let kept_from_a1 = found(&from_a1, blocks).is_some();
        match found(&no_start, blocks) {
            Some(tour) => {
                assert!(
                    common::is_tour(rows, cols, true, &tour.squares),
                    "{rows}x{cols} {blocks:?}: {:?}",
                    tour.names()
                );
                assert_eq!(tour.squares[0], 0, "{rows}x{cols} {blocks:?}: turned to a1");
            }
            None => assert!(
                !kept_from_a1 && (rows, cols) != (6, 12) && (rows, cols) != (10, 10),
                "{rows}x{cols} {blocks:?}: no tour with no start"
            ),
        }
    }
}
