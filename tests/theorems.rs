//! SAT agrees with the theorems on every board m x n, m <= n <= 8, and
//! `solve` answers at once where a theorem rules a tour out.

use assert_cmd::Command;
use knightsat::encoding::EncodingConfig;
use knightsat::model::board::Board;
use knightsat::model::problem::Problem;
use knightsat::model::theory::{closed_tour_exists, open_tour_exists};
use knightsat::solve::Outcome;

use crate::common::sat::solve_with_varisat;
use predicates::prelude::*;
use predicates::str::contains;

fn sat_finds_tour(rows: usize, cols: usize, closed: bool) -> bool {
    let problem = Problem::new(Board::new(rows, cols).unwrap()).closed(closed);
    let outcome = solve_with_varisat(&problem, &EncodingConfig::default()).unwrap();
    matches!(outcome, Outcome::Tour(_))
}

#[test]
fn closed_tours_exist_exactly_where_schwenk_says() {
    for m in 1..=8 {
        for n in m..=8 {
            assert_eq!(
                sat_finds_tour(m, n, true),
                closed_tour_exists(m, n),
                "{m}x{n} closed"
            );
        }
    }
}

#[test]
fn open_tours_exist_exactly_where_the_classification_says() {
    for m in 1..=8 {
        for n in m..=8 {
            assert_eq!(
                sat_finds_tour(m, n, false),
                open_tour_exists(m, n),
                "{m}x{n} open"
            );
        }
    }
}

#[test]
fn solve_answers_impossible_boards_by_theorem_unless_told_to_search() {
    Command::cargo_bin("knightsat")
        .unwrap()
        .args(["solve", "--board", "4x7", "--closed"])
        .assert()
        .code(20)
        .stdout("no tour exists for these constraints\n")
        .stderr(contains("Schwenk"));
    Command::cargo_bin("knightsat")
        .unwrap()
        .args(["solve", "--board", "3x6", "--no-theory"])
        .assert()
        .code(20)
        .stderr(predicates::str::contains("theorem").not());
    // A fixed start only removes tours, so the theorem answers it too.
    Command::cargo_bin("knightsat")
        .unwrap()
        .args(["solve", "--size", "4", "--start", "a1"])
        .assert()
        .code(20)
        .stderr(contains("classification of open tours"));
}
