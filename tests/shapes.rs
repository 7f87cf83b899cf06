//! Beyond the plain knight's rectangle: boards with holes, other leapers,
//! clues, and closed tours with both ends fixed all agree with the
//! independent oracle (tests/common), which has its own move table and search.

use crate::common;

use common::adapters::Variant;
use common::count::{list_by_sat, Listing};
use common::sat::{solve, solve_with_varisat};
use common::{Demands, Sequence, Shape};
use knightsat::encoding::{EncodingConfig, TimeIndexedConfig};
use knightsat::model::problem::Problem;
use knightsat::solve::Outcome;

/// Counts every tour of `problem` with the default encoding and each
/// built-in solver (which must agree), calling `check` on each tour.
fn count(problem: &Problem, check: impl FnMut(&knightsat::Tour)) -> u64 {
    let mut check = check;
    let counts: Vec<u64> = common::sat::built_in()
        .iter()
        .map(|backend| {
            list_by_sat(
                problem,
                &common::sat::request(EncodingConfig::default(), backend),
                Listing::default(),
                |tour| {
                    check(tour);
                    Ok(())
                },
            )
            .unwrap()
        })
        .collect();
    assert!(
        counts.windows(2).all(|pair| pair[0] == pair[1]),
        "the built-in solvers disagree: {counts:?}"
    );
    counts[0]
}

/// Solves under every variant and compares existence with the oracle;
/// pushes each disagreement or invalid tour onto `failures`.
fn check_existence(
    shape: &Shape,
    demands: &Demands,
    variants: &[Variant],
    failures: &mut Vec<String>,
) {
    let expected = common::has_tour(shape, demands);
    for (i, variant) in variants.iter().enumerate() {
        // The built-in solvers take the variants in turn.
        let backend = &common::sat::built_in()[(i / 2) % 2];
        let problem = common::adapters::problem_of(shape, demands, i % 2 == 0);
        let case = format!("{shape:?} {demands:?} {variant:?} {}", backend.name());
        let request = common::sat::request(*variant, backend);
        match solve(&problem, &request).map(|solved| solved.outcome) {
            Ok(Outcome::Tour(tour)) => {
                if !common::is_tour_of(shape, demands, &tour.squares) {
                    failures.push(format!(
                        "{case}: not a tour by the oracle: {:?}",
                        tour.names()
                    ));
                }
                if !expected {
                    failures.push(format!("{case}: SAT found a tour, the oracle none"));
                }
            }
            Ok(Outcome::NoTour) if expected => {
                failures.push(format!("{case}: SAT says no tour, the oracle found one"));
            }
            Ok(Outcome::NoTour) => {}
            Err(error) => failures.push(format!("{case}: {error}")),
        }
    }
}

/// Up to 200 tours of `shape` by the oracle, with no clues: the tours
/// random clue sets are read off.
fn some_tours(shape: &Shape, closed: bool) -> Vec<Vec<usize>> {
    common::tours_of(
        shape,
        &Demands {
            closed,
            clues: vec![],
        },
        200,
    )
}

/// Open and closed, with no start and with the first square as start.
fn rule_sets() -> Vec<Demands> {
    let mut sets = Vec::new();
    for closed in [false, true] {
        sets.push(Demands {
            closed,
            clues: vec![],
        });
        sets.push(Demands {
            closed,
            clues: vec![(0, 0)],
        });
    }
    sets
}

#[test]
fn boards_with_holes_agree_with_the_oracle() {
    let mut shapes = Vec::new();
    // Every single hole on these boards…
    for (rows, cols) in [(3, 4), (3, 5), (4, 4), (4, 5), (3, 7), (5, 5)] {
        for hole in 0..rows * cols {
            shapes.push(Shape {
                holes: vec![hole],
                ..Shape::knight(rows, cols)
            });
        }
    }
    // …and some random pairs and triples on larger ones.
    let mut random = Sequence(6);
    for (rows, cols) in [(4, 5), (5, 5), (4, 6), (3, 8)] {
        for count in [2, 3] {
            for _ in 0..4 {
                let mut holes: Vec<usize> = (0..count).map(|_| random.below(rows * cols)).collect();
                holes.sort_unstable();
                holes.dedup();
                shapes.push(Shape {
                    holes,
                    ..Shape::knight(rows, cols)
                });
            }
        }
    }
    let variants = common::adapters::key_variants();
    let mut failures = Vec::new();
    let mut with_tours = 0;
    for shape in &shapes {
        for demands in rule_sets() {
            with_tours += usize::from(common::has_tour(shape, &demands));
            check_existence(shape, &demands, &variants, &mut failures);
        }
    }
    common::assert_none(&failures);
    assert!(
        with_tours > 50,
        "only {with_tours} cases with a tour: too few to test"
    );
}

#[test]
fn other_leapers_agree_with_the_oracle() {
    let leapers = [
        (0, 1),
        (1, 1),
        (0, 2),
        (1, 3),
        (2, 3),
        (1, 4),
        (2, 2),
        (0, 3),
    ];
    let variants = common::adapters::key_variants();
    let mut failures = Vec::new();
    for leaper in leapers {
        for (rows, cols) in common::small_boards(20) {
            let shape = Shape {
                leaper,
                ..Shape::knight(rows, cols)
            };
            for demands in rule_sets() {
                check_existence(&shape, &demands, &variants, &mut failures);
            }
        }
    }
    common::assert_none(&failures);
}

#[test]
fn the_camel_never_tours_a_board_of_more_than_one_square() {
    // The (1,3)-leaper keeps its colour, so it never reaches the other half.
    for (rows, cols) in common::small_boards(30) {
        let problem = Problem::new(
            Shape {
                leaper: (1, 3),
                ..Shape::knight(rows, cols)
            }
            .board(),
        );
        let expect_tour = rows * cols == 1;
        let unpruned = EncodingConfig::from(TimeIndexedConfig {
            parity: false,
            reachability: false,
            ..TimeIndexedConfig::default()
        });
        for (config, how) in [
            (EncodingConfig::default(), ""),
            (unpruned, " without pruning"),
        ] {
            assert_eq!(
                matches!(
                    solve_with_varisat(&problem, &config).unwrap(),
                    Outcome::Tour(_)
                ),
                expect_tour,
                "{rows}x{cols}{how}"
            );
        }
    }
    // On a board of one colour only (every other square a hole) it can.
    let checkerboard = Shape {
        holes: (0..25)
            .filter(|cell| (cell / 5 + cell % 5) % 2 == 1)
            .collect(),
        leaper: (1, 3),
        ..Shape::knight(5, 5)
    };
    let demands = Demands::default();
    let oracle = common::tours_of(&checkerboard, &demands, 1);
    let found = solve_with_varisat(
        &Problem::new(checkerboard.board()),
        &EncodingConfig::default(),
    )
    .unwrap();
    assert_eq!(matches!(found, Outcome::Tour(_)), !oracle.is_empty());
}

#[test]
fn leaper_tour_counts_match_the_oracle() {
    // Counting checks every tour, not just existence: each sequence once.
    let mut failures = Vec::new();
    let mut total = 0;
    for leaper in [(1, 2), (0, 1), (1, 1), (2, 3), (1, 4)] {
        for (rows, cols) in common::small_boards(16) {
            for demands in rule_sets() {
                let shape = Shape {
                    leaper,
                    ..Shape::knight(rows, cols)
                };
                let expected = common::tours_of(&shape, &demands, usize::MAX).len() as u64;
                total += expected;
                let problem = common::adapters::problem_of(&shape, &demands, true);
                let counted = count(&problem, |tour| {
                    assert!(common::is_tour_of(&shape, &demands, &tour.squares));
                });
                if counted != expected {
                    failures.push(format!(
                        "{shape:?} {demands:?}: counted {counted}, oracle {expected}"
                    ));
                }
            }
        }
    }
    common::assert_none(&failures);
    assert!(total > 1000, "only {total} tours counted: too few to test");
}

#[test]
fn clues_agree_with_the_oracle_in_existence_and_count() {
    // Clues drawn from a real tour (so some cases have solutions) mixed
    // with random ones (so some do not), on plain, holed and leaper boards.
    let shapes = [
        Shape::knight(3, 4),
        Shape::knight(4, 5),
        Shape::knight(5, 5),
        Shape {
            holes: vec![12],
            ..Shape::knight(5, 5)
        },
        Shape::knight(5, 6),
        Shape {
            leaper: (0, 1),
            ..Shape::knight(4, 4)
        },
        Shape {
            leaper: (2, 3),
            ..Shape::knight(5, 5)
        },
    ];
    let mut random = Sequence(21);
    let variants = common::adapters::key_variants();
    let mut failures = Vec::new();
    let mut solvable = 0;
    for shape in &shapes {
        let n = shape.squares();
        for closed in [false, true] {
            let tours = some_tours(shape, closed);
            for case in 0..8 {
                let clue_count = 2 + random.below(3);
                let tour = (case % 2 == 0 && !tours.is_empty())
                    .then(|| tours[random.below(tours.len())].as_slice());
                let Some(clues) = common::random_clues(n, clue_count, tour, &mut random) else {
                    continue; // a square with two numbers is rejected as bad input
                };
                let demands = Demands { closed, clues };
                let expected = common::tours_of(shape, &demands, usize::MAX);
                solvable += usize::from(!expected.is_empty());
                check_existence(shape, &demands, &variants, &mut failures);
                let counted = count(
                    &common::adapters::problem_of(shape, &demands, false),
                    |_| {},
                );
                if counted != expected.len() as u64 {
                    failures.push(format!(
                        "{shape:?} {demands:?}: counted {counted}, oracle {}",
                        expected.len()
                    ));
                }
            }
        }
    }
    common::assert_none(&failures);
    assert!(solvable >= 10, "only {solvable} solvable clue sets");
}

#[test]
fn closed_tours_with_start_and_end_agree_with_the_oracle() {
    // Reversing a closed tour keeps its start but not its end: symmetry
    // breaking once lost every tour ending on the start's lower neighbour.
    let mut failures = Vec::new();
    for (rows, cols) in common::small_boards(30) {
        let shape = Shape::knight(rows, cols);
        let graph = shape.graph();
        let variants = if (rows, cols) == (5, 6) {
            common::adapters::all_variants()
        } else {
            common::adapters::key_variants()
        };
        for &end in &graph[0] {
            let demands = Demands {
                closed: true,
                clues: vec![(0, 0), (shape.squares() - 1, end)],
            };
            check_existence(&shape, &demands, &variants, &mut failures);
        }
    }
    common::assert_none(&failures);
}

#[test]
fn orbits_on_holed_boards_and_for_other_leapers_match_the_oracle() {
    // Symmetries must map holes onto holes: c3 keeps all 8, a1 only the
    // diagonal mirror.
    let shapes = [
        Shape {
            holes: vec![12],
            ..Shape::knight(5, 5)
        },
        Shape {
            holes: vec![0],
            ..Shape::knight(5, 5)
        },
        Shape {
            holes: vec![0, 3],
            ..Shape::knight(4, 5)
        },
        Shape {
            leaper: (0, 1),
            ..Shape::knight(4, 5)
        },
        Shape {
            leaper: (0, 1),
            ..Shape::knight(4, 4)
        },
    ];
    let mut failures = Vec::new();
    for shape in &shapes {
        for closed in [false, true] {
            let expected = common::count_orbits_of(shape, closed, None) as u64;
            for backend in common::sat::built_in() {
                let counted = list_by_sat(
                    &Problem::new(shape.board()).closed(closed),
                    &common::sat::request(EncodingConfig::default(), &backend),
                    Listing {
                        limit: None,
                        up_to_symmetry: true,
                    },
                    |_| Ok(()),
                )
                .unwrap();
                if counted != expected {
                    failures.push(format!(
                        "{shape:?} closed={closed} {}: {counted} orbits, oracle {expected}",
                        backend.name()
                    ));
                }
            }
        }
    }
    common::assert_none(&failures);
}

/// A corridor around the clues (`TimeIndexedConfig::corridor`) restricts
/// the search: every tour it finds honours the clues by the oracle's own
/// check, and where it finds none it says so as "none within the corridor",
/// never as "no tour". Wide enough, it keeps every tour, so it then agrees
/// with the oracle exactly.
#[test]
fn corridors_find_real_tours_and_never_say_there_is_none() {
    let shapes = [
        Shape::knight(5, 5),
        Shape::knight(5, 6),
        Shape::knight(6, 6),
        Shape {
            holes: vec![14],
            ..Shape::knight(6, 6)
        },
    ];
    let mut random = Sequence(64);
    let mut failures = Vec::new();
    let (mut found_narrow, mut missed_narrow, mut cases) = (0, 0, 0);
    for shape in &shapes {
        let n = shape.squares();
        for closed in [false, true] {
            let tours = some_tours(shape, closed);
            for case in 0..6 {
                let tour = (case % 3 != 2 && !tours.is_empty())
                    .then(|| tours[random.below(tours.len())].as_slice());
                let count = 3 + random.below(4);
                let Some(clues) = common::random_clues(n, count, tour, &mut random) else {
                    continue;
                };
                let demands = Demands { closed, clues };
                let expected = common::has_tour(shape, &demands);
                let problem = common::adapters::problem_of(shape, &demands, false);
                cases += 1;
                for slack in [0, 2, 4, 1000] {
                    let config = EncodingConfig::from(TimeIndexedConfig {
                        corridor: Some(slack),
                        ..TimeIndexedConfig::default()
                    });
                    let case = format!("{shape:?} {demands:?} corridor {slack}");
                    match solve_with_varisat(&problem, &config) {
                        Ok(Outcome::Tour(tour)) => {
                            if !common::is_tour_of(shape, &demands, &tour.squares) {
                                failures.push(format!("{case}: not a tour: {:?}", tour.names()));
                            }
                            found_narrow += usize::from(slack < 1000);
                        }
                        Ok(Outcome::NoTour) => {
                            failures.push(format!("{case}: said no tour (expected {expected})"));
                        }
                        Err(knightsat::Error::Search(
                            knightsat::error::SearchError::NoneWithin { .. },
                        )) => {
                            if slack == 1000 && expected {
                                failures.push(format!("{case}: a wide corridor lost every tour"));
                            }
                            missed_narrow += usize::from(slack < 1000 && expected);
                        }
                        Err(error) => failures.push(format!("{case}: {error}")),
                    }
                }
            }
        }
    }
    common::assert_none(&failures);
    assert!(cases >= 30, "only {cases} clue sets");
    assert!(
        found_narrow >= 20,
        "narrow corridors found only {found_narrow} tours"
    );
    // Narrow corridors do lose tours on these small boards: the test sees both.
    assert!(
        missed_narrow > 0,
        "no narrow corridor lost a tour: the corridor restricts nothing here"
    );
}
