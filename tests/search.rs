//! The searches without SAT (Warnsdorff's rule, backtracking) judged by the
//! independent oracle (tests/common), as the SAT encoding is: backtracking
//! finds a tour exactly when the oracle does and counts what it counts;
//! every tour Warnsdorff's rule reports is one by the oracle's check.

use crate::common;
use knightsat::error::SearchError;

use common::count::{list_by, Listing};
use common::{Demands, Sequence, Shape};
use knightsat::model::board::Board;
use knightsat::model::problem::{Clue, Problem};
use knightsat::solve::{Method, Request};
use knightsat::{backtrack, warnsdorff, Warnsdorff};

/// Open and closed, with no start and with the first square as start.
fn rule_sets() -> Vec<Demands> {
    let mut sets = Vec::new();
    for closed in [false, true] {
        for clues in [vec![], vec![(0, 0)]] {
            sets.push(Demands { closed, clues });
        }
    }
    sets
}

/// Every board of at most `max` squares, plain; with one hole and with two
/// (cells chosen by a fixed pseudo-random sequence); and for each leaper
/// below, plain.
fn shapes(max: usize) -> Vec<Shape> {
    let mut random = Sequence(12);
    let mut shapes = Vec::new();
    for (rows, cols) in common::small_boards(max) {
        let plain = Shape::knight(rows, cols);
        shapes.push(plain.clone());
        let cells = rows * cols;
        // (The oracle names files a to z.)
        if rows >= 2 && cols <= 26 {
            let one = random.below(cells);
            let mut two = vec![one, random.below(cells)];
            two.sort_unstable();
            two.dedup();
            shapes.push(Shape {
                holes: vec![one],
                ..plain.clone()
            });
            shapes.push(Shape {
                holes: two,
                ..plain.clone()
            });
        }
        for leaper in [(0, 1), (1, 1), (1, 3), (2, 3), (1, 4), (0, 2)] {
            shapes.push(Shape {
                leaper,
                ..plain.clone()
            });
        }
    }
    shapes
}

#[test]
fn backtracking_finds_a_tour_exactly_when_the_oracle_does() {
    let mut failures = Vec::new();
    let (mut cases, mut with_tours) = (0, 0);
    for shape in shapes(30) {
        for demands in rule_sets() {
            let problem = common::adapters::problem_of(&shape, &demands, true);
            let expected = common::has_tour(&shape, &demands);
            let case = format!("{shape:?} {demands:?}");
            cases += 1;
            with_tours += usize::from(expected);
            match backtrack(&problem, None) {
                Ok(Some(tour)) if !expected => {
                    failures.push(format!("{case}: found {:?}, the oracle none", tour.names()));
                }
                Ok(Some(tour)) if !common::is_tour_of(&shape, &demands, &tour.squares) => {
                    failures.push(format!("{case}: not a tour: {:?}", tour.names()));
                }
                Ok(None) if expected => {
                    failures.push(format!("{case}: none, the oracle found one"));
                }
                Ok(_) => {}
                Err(error) => failures.push(format!("{case}: {error}")),
            }
        }
    }
    common::assert_none(&failures);
    assert!(
        cases > 1500 && with_tours > 200,
        "{cases} cases, {with_tours} with tours"
    );
}

#[test]
fn every_tour_warnsdorff_reports_passes_the_oracle() {
    let mut failures = Vec::new();
    let mut found = 0;
    for shape in shapes(30) {
        for demands in rule_sets() {
            let problem = common::adapters::problem_of(&shape, &demands, true);
            let case = format!("{shape:?} {demands:?}");
            match warnsdorff(&problem, &Warnsdorff::default(), None) {
                Ok(tour) if common::is_tour_of(&shape, &demands, &tour.squares) => found += 1,
                Ok(tour) => failures.push(format!("{case}: not a tour: {:?}", tour.names())),
                Err(SearchError::GaveUp { .. }) => {}
                Err(error) => failures.push(format!("{case}: {error}")),
            }
        }
    }
    common::assert_none(&failures);
    // It finds most of the 220 cases with a tour (212 when this was written).
    assert!(found > 180, "only {found} tours to check");
}

/// Counts by backtracking through `count`, with every tour checked by the oracle.
fn backtrack_count(shape: &Shape, demands: &Demands, problem: &Problem) -> u64 {
    let mut invalid = 0;
    let found = list_by(
        problem,
        Method::Backtrack,
        &Request::default(),
        Listing::default(),
        |tour| {
            invalid += usize::from(!common::is_tour_of(shape, demands, &tour.squares));
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(invalid, 0, "{shape:?} {demands:?}: invalid tours");
    found
}

#[test]
fn backtracking_counts_what_the_oracle_counts() {
    // Every board of up to 30 squares (plain, holed, other leapers), from
    // a1 and, up to 25 squares, from anywhere: the oracle lists every tour.
    // (From anywhere on 26 to 30 squares it takes minutes; the next test
    // counts some of those.)
    let mut failures = Vec::new();
    let mut total = 0;
    for shape in shapes(30) {
        for demands in rule_sets() {
            if shape.rows * shape.cols > 25 && demands.clues.is_empty() {
                continue;
            }
            let problem = common::adapters::problem_of(&shape, &demands, true);
            let expected = common::tours_of(&shape, &demands, usize::MAX).len() as u64;
            let found = backtrack_count(&shape, &demands, &problem);
            total += found;
            if found != expected {
                failures.push(format!(
                    "{shape:?} {demands:?}: counted {found}, the oracle {expected}"
                ));
            }
        }
    }
    common::assert_none(&failures);
    assert!(total > 10_000, "only {total} tours counted");
}

#[test]
fn backtracking_counts_larger_boards_and_orbits() {
    // The counts SAT gives too (tests/counting.rs). 5x6 closed: the oracle
    // counts from a1 (16), each tour reported in its 30 rotations (480).
    for (rows, cols, closed, start, expected) in [
        (3, 9, false, None, 1120),
        (4, 6, false, None, 1488),
        (5, 6, true, Some(0), 16),
    ] {
        let shape = Shape::knight(rows, cols);
        let demands = Demands {
            closed,
            clues: start.map(|s| (0, s)).into_iter().collect(),
        };
        assert_eq!(common::count_tours(rows, cols, closed, start), expected);
        let problem = common::adapters::problem_of(&shape, &demands, true);
        assert_eq!(backtrack_count(&shape, &demands, &problem), expected);
    }
    let closed = Demands {
        closed: true,
        clues: vec![],
    };
    let shape = Shape::knight(5, 6);
    assert_eq!(
        backtrack_count(
            &shape,
            &closed,
            &common::adapters::problem_of(&shape, &closed, true)
        ),
        480
    );
    for (rows, cols, closed, start) in [
        (3, 4, false, None),
        (4, 5, false, None),
        (5, 5, false, None),
        (5, 5, false, Some(12)),
        (3, 8, false, None),
        (5, 6, true, Some(0)),
    ] {
        let problem = common::adapters::plain_problem(rows, cols, closed, start);
        let orbits = Listing {
            limit: None,
            up_to_symmetry: true,
        };
        let found = list_by(
            &problem,
            Method::Backtrack,
            &Request::default(),
            orbits,
            |_| Ok(()),
        )
        .unwrap();
        let expected = common::count_orbits(rows, cols, closed, start) as u64;
        assert_eq!(
            found, expected,
            "{rows}x{cols} closed={closed} start={start:?}"
        );
    }
}

#[test]
fn backtracking_follows_clues_and_ends_as_the_oracle_does() {
    let mut random = Sequence(3);
    let mut failures = Vec::new();
    let mut with_tours = 0;
    for (rows, cols) in [(3, 4), (4, 4), (3, 5), (4, 5), (3, 7), (5, 5)] {
        let shape = Shape::knight(rows, cols);
        let n = rows * cols;
        for closed in [false, true] {
            let some = common::tours_of(
                &shape,
                &Demands {
                    closed,
                    clues: vec![],
                },
                50,
            );
            for case in 0..10 {
                // Up to three clues: from a tour where there is one (so
                // that some cases have tours), at random every third case.
                let mut clues: Vec<(usize, usize)> = Vec::new();
                for _ in 0..=random.below(3) {
                    let step = random.below(n);
                    let square = match some.len() {
                        0 => random.below(n),
                        _ if case % 3 == 0 => random.below(n),
                        len => some[random.below(len)][step],
                    };
                    if clues.iter().all(|&(t, s)| t != step && s != square) {
                        clues.push((step, square));
                    }
                }
                let demands = Demands { closed, clues };
                let expected = common::has_tour(&shape, &demands);
                with_tours += usize::from(expected);
                let problem = common::adapters::problem_of(&shape, &demands, true);
                let found = backtrack(&problem, None).unwrap();
                let valid = found
                    .as_ref()
                    .is_some_and(|tour| common::is_tour_of(&shape, &demands, &tour.squares));
                if valid != expected {
                    failures.push(format!(
                        "{shape:?} {demands:?}: oracle {expected}, found {found:?}"
                    ));
                }
                let count = backtrack_count(&shape, &demands, &problem);
                let oracle = common::tours_of(&shape, &demands, usize::MAX).len() as u64;
                if count != oracle {
                    failures.push(format!(
                        "{shape:?} {demands:?}: counted {count}, oracle {oracle}"
                    ));
                }
            }
        }
    }
    common::assert_none(&failures);
    assert!(with_tours > 10, "only {with_tours} cases with a tour");
}

#[test]
fn warnsdorff_tours_the_chessboard_from_every_start_at_the_first_attempt() {
    // Seed 004's claim, for the default rule: one deterministic attempt from
    // each of the 64 squares completes an open tour.
    let board = Board::new(8, 8).unwrap();
    let shape = Shape::knight(8, 8);
    let once = Warnsdorff {
        attempts: Some(1),
        ..Warnsdorff::default()
    };
    let mut failed = Vec::new();
    for start in 0..64 {
        let problem = Problem::new(board.clone()).with_start(Some(start)).unwrap();
        let demands = Demands {
            closed: false,
            clues: vec![(0, start)],
        };
        match warnsdorff(&problem, &once, None) {
            Ok(tour) => assert!(common::is_tour_of(&shape, &demands, &tour.squares)),
            Err(_) => failed.push(board.name(start)),
        }
    }
    assert!(failed.is_empty(), "no tour from {failed:?}");
}

/// Whether `squares` is a knight's tour of the full rows x cols board
/// (closed if asked), checked by coordinates: the oracle's move table is
/// quadratic in the squares, too slow for big boards.
fn is_big_tour(rows: usize, cols: usize, closed: bool, squares: &[usize]) -> bool {
    let knight = |a: usize, b: usize| {
        let (df, dr) = ((a % cols).abs_diff(b % cols), (a / cols).abs_diff(b / cols));
        (df, dr) == (1, 2) || (df, dr) == (2, 1)
    };
    let mut seen = vec![false; rows * cols];
    squares.len() == rows * cols
        && squares
            .iter()
            .all(|&s| s < seen.len() && !std::mem::replace(&mut seen[s], true))
        && squares.windows(2).all(|w| knight(w[0], w[1]))
        && (!closed || knight(squares[0], squares[squares.len() - 1]))
}

#[test]
fn warnsdorff_tours_big_boards_open_and_closed() {
    for (rows, cols) in [(100, 100), (64, 80), (201, 199), (300, 300)] {
        for closed in [false, true] {
            if closed && (rows * cols) % 2 == 1 {
                continue;
            }
            let problem = Problem::new(Board::new(rows, cols).unwrap()).closed(closed);
            let tour = warnsdorff(&problem, &Warnsdorff::default(), None)
                .unwrap_or_else(|e| panic!("{rows}x{cols} closed={closed}: {e}"));
            assert!(
                is_big_tour(rows, cols, closed, &tour.squares),
                "{rows}x{cols}"
            );
            if closed {
                assert_eq!(tour.squares[0], 0, "rotated to start on a1");
            }
        }
    }
}

#[test]
fn warnsdorff_honours_start_end_and_seeds() {
    let shape = Shape::knight(8, 8);
    let board = shape.board();
    let mut random = Sequence(8);
    let mut found = 0;
    for _ in 0..40 {
        let (start, end) = (random.below(64), random.below(64));
        if start == end {
            continue;
        }
        for (start, end) in [(Some(start), Some(end)), (None, Some(end))] {
            let problem = Problem::new(board.clone())
                .with_start(start)
                .and_then(|p| p.with_end(end))
                .unwrap();
            let demands = Demands {
                closed: false,
                clues: [start.map(|s| (0, s)), end.map(|e| (63, e))]
                    .into_iter()
                    .flatten()
                    .collect(),
            };
            if let Ok(tour) = warnsdorff(&problem, &Warnsdorff::default(), None) {
                assert!(
                    common::is_tour_of(&shape, &demands, &tour.squares),
                    "{demands:?}"
                );
                found += 1;
            }
        }
    }
    assert!(found > 20, "only {found} tours with fixed ends");
    // The same seed gives the same tour; another seed may differ.
    let problem = Problem::new(board);
    let seeded = |seed| {
        let options = Warnsdorff {
            seed: Some(seed),
            ..Warnsdorff::default()
        };
        warnsdorff(&problem, &options, None).unwrap().squares
    };
    assert_eq!(seeded(5), seeded(5));
    assert!((0..10).any(|seed| seeded(seed) != seeded(5)));
}

#[test]
fn warnsdorff_refuses_clues_and_counting() {
    let board = Board::new(5, 5).unwrap();
    let puzzle = Problem::new(board)
        .with_clues([Clue { step: 3, square: 7 }])
        .unwrap();
    assert!(matches!(
        warnsdorff(&puzzle, &Warnsdorff::default(), None),
        Err(SearchError::Unsupported(_))
    ));
    let every = Request {
        every_tour: true,
        ..Request::default()
    };
    assert!(Method::Warnsdorff
        .check_supports(&puzzle.clone().without_clues(), &every)
        .is_err());
    assert!(Method::Backtrack.check_supports(&puzzle, &every).is_ok());
}
