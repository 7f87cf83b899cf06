//! Compares Warnsdorff's tie-break rules (the table in docs/search.md,
//! "Warnsdorff's rule", comes from it). Release build:
//!
//! ```sh
//! cargo run --release --example tie_breaks          # one attempt, boards up to 60x60
//! cargo run --release --example tie_breaks small    # full runs on small hard boards
//! cargo run --release --example tie_breaks big      # one attempt on 100x100 to 2000x2000
//! ```

use std::fmt::Write;
use std::time::Instant;

use knightsat::model::board::Board;
use knightsat::model::problem::Problem;
use knightsat::{warnsdorff, TieBreak, Warnsdorff};

/// Whether `attempts` (one by default) with these ties and seed find a tour.
fn succeeds(
    problem: &Problem,
    tie_break: TieBreak,
    seed: Option<u64>,
    attempts: Option<u32>,
) -> bool {
    let options = Warnsdorff {
        tie_break,
        seed,
        attempts,
    };
    warnsdorff(problem, &options, None).is_ok()
}

fn square(n: usize, closed: bool) -> Problem {
    Problem::new(Board::new(n, n).unwrap()).closed(closed)
}

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("small") => small(),
        Some("big") => big(),
        _ => one_attempt(60),
    }
}

/// One attempt per problem: the deterministic one (64 starts of 8x8; N x N
/// from a1 and closed, N up to `max_n`), and single random ones (seeds 0 to
/// 19) on bigger boards.
fn one_attempt(max_n: usize) {
    println!("rule | 8x8 starts | open NxN from a1, N=5..{max_n}: fails | closed even N=6..{max_n}: fails | random single attempts, open/closed of 20");
    for tie_break in TieBreak::ALL {
        let board = Board::new(8, 8).unwrap();
        let starts = (0..64)
            .filter(|&s| {
                let problem = Problem::new(board.clone()).with_start(Some(s)).unwrap();
                succeeds(&problem, tie_break, None, Some(1))
            })
            .count();
        let mut open_fails = Vec::new();
        let mut closed_fails = Vec::new();
        for n in 5..=max_n {
            let from_a1 = square(n, false).with_start(Some(0)).unwrap();
            if !succeeds(&from_a1, tie_break, None, Some(1)) {
                open_fails.push(n);
            }
            if n % 2 == 0 && !succeeds(&square(n, true), tie_break, None, Some(1)) {
                closed_fails.push(n);
            }
        }
        let mut random = String::new();
        for n in [8, 50, 100, 200, 500] {
            let wins = |closed| {
                (0..20)
                    .filter(|&seed| succeeds(&square(n, closed), tie_break, Some(seed), Some(1)))
                    .count()
            };
            let _ = write!(random, " {n}:{}/{}", wins(false), wins(true));
        }
        println!(
            "{} | {starts}/64 | {open_fails:?} | {closed_fails:?} |{random}",
            tie_break.name()
        );
    }
}

/// Whole runs (default attempts) with 20 seeds on small boards that are hard
/// for the rule.
fn small() {
    let boards = [
        (5, 6, true),
        (6, 6, true),
        (3, 10, true),
        (3, 12, true),
        (6, 7, true),
        (5, 8, true),
        (8, 8, true),
        (7, 7, false),
        (5, 5, false),
        (3, 7, false),
        (4, 5, false),
    ];
    for tie_break in TieBreak::ALL {
        let mut line = String::new();
        for (rows, cols, closed) in boards {
            let problem = Problem::new(Board::new(rows, cols).unwrap()).closed(closed);
            let wins = (0..20)
                .filter(|&seed| succeeds(&problem, tie_break, Some(seed), None))
                .count();
            let kind = if closed { " closed" } else { "" };
            let _ = write!(line, " {rows}x{cols}{kind}:{wins}");
        }
        println!("{} (of 20 seeds):{line}", tie_break.name());
    }
}

/// The deterministic attempt and five random ones on big boards.
fn big() {
    for tie_break in [TieBreak::FarthestFromCentre, TieBreak::LookaheadThenCentre] {
        for n in [100, 200, 500, 1000, 2000] {
            for closed in [false, true] {
                let problem = square(n, closed);
                let started = Instant::now();
                let first = succeeds(&problem, tie_break, None, Some(1));
                let seeds = (0..5)
                    .filter(|&seed| succeeds(&problem, tie_break, Some(seed), Some(1)))
                    .count();
                println!(
                    "{} {n}x{n} closed={closed}: deterministic {first}, seeds 0-4 {seeds}/5, {:.2} s",
                    tie_break.name(),
                    started.elapsed().as_secs_f64()
                );
            }
        }
    }
}
