//! Compares Warnsdorff tie-break rules: how often one deterministic attempt
//! completes a tour, on the 64 starts of 8x8, on N x N from a1, and how
//! many random attempts big boards need.
//!
//! `cargo run --release --example tie_breaks [MAX_N]`

use std::time::Instant;

use knightsat::board::Board;
use knightsat::problem::Problem;
use knightsat::search::warnsdorff::{warnsdorff, TieBreak, Warnsdorff};

fn succeeds(problem: &Problem, tie_break: TieBreak, seed: Option<u64>) -> bool {
    let options = Warnsdorff {
        tie_break,
        seed,
        attempts: Some(1),
    };
    warnsdorff(problem, &options, None).is_ok()
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("big") {
        return big();
    }
    if std::env::args().nth(1).as_deref() == Some("closed") {
        return closed();
    }
    let max_n: usize = std::env::args()
        .nth(1)
        .map_or(100, |n| n.parse().expect("a number"));
    for tie_break in TieBreak::ALL {
        let started = Instant::now();
        let board = Board::new(8, 8).unwrap();
        let starts = (0..64)
            .filter(|&s| {
                let problem = Problem::new(board.clone()).with_start(Some(s)).unwrap();
                succeeds(&problem, tie_break, None)
            })
            .count();
        let mut open_fails = Vec::new();
        let mut closed_fails = Vec::new();
        let mut closed_ok = 0;
        let mut closed_total = 0;
        for n in 5..=max_n {
            let board = Board::new(n, n).unwrap();
            let open = Problem::new(board.clone()).with_start(Some(0)).unwrap();
            if !succeeds(&open, tie_break, None) {
                open_fails.push(n);
            }
            if n % 2 == 0 {
                closed_total += 1;
                if succeeds(&Problem::new(board).closed(true), tie_break, None) {
                    closed_ok += 1;
                } else {
                    closed_fails.push(n);
                }
            }
        }
        let mut random = Vec::new();
        for n in [8, 50, 100, 200, 500] {
            let board = Board::new(n, n).unwrap();
            let open = Problem::new(board.clone());
            let wins = (0..20)
                .filter(|&seed| succeeds(&open, tie_break, Some(seed)))
                .count();
            let closed = Problem::new(board).closed(true);
            let closed_wins = (0..20)
                .filter(|&seed| succeeds(&closed, tie_break, Some(seed)))
                .count();
            random.push(format!("{n}:{wins}/{closed_wins}"));
        }
        println!(
            "{:22} 8x8 starts {starts}/64; open from a1 fails on {} of N=5..={max_n}: {:?}; closed ok {closed_ok}/{closed_total} {closed_fails:?}; random open/closed of 20: {}; {:.1} s",
            tie_break.name(),
            open_fails.len(),
            &open_fails[..open_fails.len().min(12)],
            random.join(" "),
            started.elapsed().as_secs_f64()
        );
    }
}

/// One deterministic attempt, open and closed, on big boards.
fn big() {
    for tie_break in [TieBreak::FarthestFromCentre, TieBreak::LookaheadThenCentre] {
        for n in [100, 200, 500, 1000, 2000] {
            let board = Board::new(n, n).unwrap();
            for closed in [false, true] {
                let problem = Problem::new(board.clone()).closed(closed);
                let started = Instant::now();
                let ok = succeeds(&problem, tie_break, None);
                let seeds = (0..5).filter(|&seed| succeeds(&problem, tie_break, Some(seed))).count();
                println!(
                    "{:22} {n}x{n} closed={closed}: deterministic {ok}, seeds 0-4 {seeds}/5, {:.2} s",
                    tie_break.name(),
                    started.elapsed().as_secs_f64()
                );
            }
        }
    }
}

/// Closed tours by random attempts on even boards from 6x6 to 100x100.
fn closed() {
    for tie_break in [TieBreak::FarthestFromCentre, TieBreak::LookaheadThenCentre] {
        let mut wins = 0;
        let mut total = 0;
        for n in (6..=100).step_by(2) {
            let problem = Problem::new(Board::new(n, n).unwrap()).closed(true);
            for seed in 0..10 {
                total += 1;
                wins += usize::from(succeeds(&problem, tie_break, Some(seed)));
            }
        }
        println!("{:22} closed, random: {wins}/{total}", tie_break.name());
    }
}
