//! `count` agrees with the brute-force oracle's exact counts, for every
//! encoding option combination on the small boards.

use crate::common;

use common::adapters::Variant;
use common::count::{list_by_sat, Listing};
use knightsat::encoding::EncodingConfig;
use knightsat::model::problem::Problem;
use knightsat::sat::Backend;

fn count(problem: &Problem, variant: Variant, backend: &Backend) -> u64 {
    let mut tours = 0;
    let request = common::sat::request(variant, backend);
    let found = list_by_sat(problem, &request, Listing::default(), |tour| {
        let (rows, cols) = (problem.board().rows(), problem.board().cols());
        assert!(
            common::is_tour(rows, cols, problem.is_closed(), &tour.squares),
            "{:?}",
            tour.names()
        );
        tours += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!(found, tours);
    found
}

fn counts_agree(boards: &[(usize, usize)], variants: &[Variant], closedness: &[bool]) {
    let mut failures = Vec::new();
    for &(rows, cols) in boards {
        for &closed in closedness {
            for start in [None, Some(0)] {
                let expected = common::count_tours(rows, cols, closed, start);
                for (index, variant) in variants.iter().enumerate() {
                    let problem = common::adapters::plain_problem(rows, cols, closed, start);
                    // The built-in solvers take the variants in turn, the
                    // other way round on the next board: each counts every
                    // variant somewhere (CaDiCaL alone from 25 squares:
                    // `taking_turns`).
                    let backend = &common::sat::taking_turns(index + rows + cols, rows * cols);
                    let found = count(&problem, *variant, backend);
                    if found != expected {
                        failures.push(format!("{rows}x{cols} closed={closed} start={start:?} {variant:?} {}: counted {found}, oracle {expected}", backend.name()));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn counts_match_the_oracle_for_every_option_combination_up_to_12_squares() {
    counts_agree(
        &common::small_boards(12),
        &common::adapters::all_variants(),
        &[false, true],
    );
}

#[test]
fn counts_match_the_oracle_from_13_to_20_squares() {
    let boards: Vec<_> = common::small_boards(20)
        .into_iter()
        .filter(|(r, c)| r * c > 12)
        .collect();
    counts_agree(&boards, &common::adapters::key_variants(), &[false, true]);
}

#[test]
fn counts_match_the_oracle_on_boards_of_21_to_25_squares() {
    let boards: Vec<_> = common::small_boards(25)
        .into_iter()
        .filter(|(r, c)| r * c > 20)
        .collect();
    counts_agree(&boards, &common::adapters::key_variants(), &[false, true]);
}

#[test]
fn counts_match_the_oracle_on_larger_rectangles() {
    // 3x9: 1120 open tours; 4x6: 1488; 5x6 (30 squares) closed: 480.
    let variants = &common::adapters::key_variants();
    let some = [
        variants[0],
        variants[variants.len() - 2],
        variants[variants.len() - 1],
    ];
    counts_agree(&[(3, 9), (4, 6)], &some, &[false, true]);
    counts_agree(&[(5, 6)], variants, &[true]);
}

#[test]
fn the_limit_stops_the_count() {
    for backend in common::sat::built_in() {
        let found = list_by_sat(
            &common::adapters::plain_problem(5, 5, false, None),
            &common::sat::request(EncodingConfig::default(), &backend),
            Listing {
                limit: Some(7),
                up_to_symmetry: false,
            },
            |_| Ok(()),
        )
        .unwrap();
        assert_eq!(found, 7);
    }
}

#[test]
fn orbit_counts_match_the_oracle() {
    for (rows, cols, closed, start) in [
        (3, 4, false, None),
        (4, 5, false, None),
        (5, 5, false, None),
        (5, 5, false, Some(0)),
        (5, 5, false, Some(12)),
        (3, 8, false, None),
        (5, 6, true, None),
        (5, 6, true, Some(0)),
    ] {
        let problem = common::adapters::plain_problem(rows, cols, closed, start);
        let up_to_symmetry = Listing {
            limit: None,
            up_to_symmetry: true,
        };
        let expected = common::count_orbits(rows, cols, closed, start) as u64;
        for backend in common::sat::built_in() {
            let request = common::sat::request(EncodingConfig::default(), &backend);
            let found = list_by_sat(&problem, &request, up_to_symmetry, |_| Ok(())).unwrap();
            assert_eq!(
                found,
                expected,
                "{rows}x{cols} closed={closed} start={start:?} {}",
                backend.name()
            );
        }
    }
}

/// The oracle's orbits of closed tours that end on `end`: every closed tour
/// from `end` rotated to end there, each counted by its least image under
/// the board's symmetries that keep `end` in place, read either way round
/// into `end`.
fn closed_orbits_ending_on(rows: usize, cols: usize, end: usize) -> u64 {
    let maps: Vec<Vec<usize>> = common::symmetries(rows, cols)
        .into_iter()
        .filter(|map| map[end] == end)
        .collect();
    let mut forms: Vec<Vec<usize>> = common::tours_from(rows, cols, true, end)
        .into_iter()
        .map(|mut tour| {
            tour.rotate_left(1);
            let mut backwards = tour.clone();
            backwards.pop();
            backwards.reverse();
            backwards.push(end);
            [tour, backwards]
                .iter()
                .flat_map(|variant| {
                    maps.iter()
                        .map(|map| variant.iter().map(|&s| map[s]).collect::<Vec<_>>())
                })
                .min()
                .unwrap()
        })
        .collect();
    forms.sort();
    forms.dedup();
    forms.len() as u64
}

#[test]
fn orbit_counts_of_closed_tours_with_an_end_match_the_oracle() {
    use common::count::list_by;
    use knightsat::encoding::SuccessorConfig;
    use knightsat::solve::{Method, Request};
    let up_to_symmetry = Listing {
        limit: None,
        up_to_symmetry: true,
    };
    let mut failures = Vec::new();
    for (rows, cols, end) in [(3, 10, "a1"), (3, 10, "b2"), (5, 6, "a1"), (5, 6, "b1")] {
        let board = knightsat::model::board::Board::new(rows, cols).unwrap();
        let end = board.parse_square(end).unwrap();
        let expected = closed_orbits_ending_on(rows, cols, end);
        let problem = Problem::new(board)
            .closed(true)
            .with_end(Some(end))
            .unwrap();
        let requests = [
            (Method::Sat, EncodingConfig::default()),
            (
                Method::Sat,
                EncodingConfig::from(SuccessorConfig::default()),
            ),
            (Method::Backtrack, EncodingConfig::default()),
        ];
        for (method, config) in requests {
            let request = Request {
                config: config.clone(),
                every_tour: true,
                ..Request::default()
            };
            let found = list_by(&problem, method, &request, up_to_symmetry, |_| Ok(())).unwrap();
            if found != expected {
                failures.push(format!(
                    "{rows}x{cols} closed, end {}, {method:?} {}: counted {found}, oracle {expected}",
                    problem.board().name(end),
                    config.name()
                ));
            }
        }
    }
    common::assert_none(&failures);
}

/// The orbits of the tours of a problem on a rows x cols knight board
/// with the given anchors, by the oracle ([`common::count_orbits_where`]).
fn orbits_by_oracle(rows: usize, cols: usize, closed: bool, anchors: &[(usize, usize)]) -> usize {
    let demands = common::Demands {
        closed,
        clues: anchors.to_vec(),
    };
    common::count_orbits_where(&common::Shape::knight(rows, cols), &demands)
}

/// A board's rows and columns, whether tours are closed, and the anchors
/// as (step from 0, square).
type OrbitCase<'a> = (usize, usize, bool, &'a [(usize, usize)]);

#[test]
fn orbits_count_the_reverse_whenever_it_keeps_every_clue_and_end() {
    // Square names as the command reads them: files from a, ranks from 1.
    let name = |cols: usize, square: usize| {
        format!(
            "{}{}",
            (b'a' + (square % cols) as u8) as char,
            square / cols + 1
        )
    };
    // (rows, cols, closed, anchors as (step from 0, square)).
    let cases: &[OrbitCase] = &[
        // Move 13 of 25 on c3: the reverse keeps it (the case).
        (5, 5, false, &[(12, 12)]),
        // Moves 2 and 24 on mirror squares.
        (5, 5, false, &[(1, 7), (23, 17)]),
        // Start a1 and end e5: the half turn with the reverse keeps both.
        (5, 5, false, &[(0, 0), (24, 24)]),
        // Start a1 alone: no reverse.
        (5, 5, false, &[(0, 0)]),
        // A clue off the middle: no reverse.
        (3, 4, false, &[(2, 9)]),
        (3, 4, false, &[(5, 6), (6, 5)]),
        // Closed from a1 with a clue at the mirrored step of itself.
        (5, 6, true, &[(0, 0), (15, 9)]),
    ];
    let mut failures = Vec::new();
    for &(rows, cols, closed, anchors) in cases {
        let expected = orbits_by_oracle(rows, cols, closed, anchors);
        let mut args = vec![
            "count".to_string(),
            "--board".into(),
            format!("{rows}x{cols}"),
            "--up-to-symmetry".into(),
        ];
        if closed {
            args.push("--closed".into());
        }
        for &(step, square) in anchors {
            args.push("--at".into());
            args.push(format!("{}={}", step + 1, name(cols, square)));
        }
        for method in ["sat", "backtrack", "auto"] {
            let mut with_method = args.clone();
            with_method.extend(["--method".to_string(), method.to_string()]);
            let argv: Vec<&str> = with_method.iter().map(String::as_str).collect();
            let counted: usize = common::cli::stdout_of(&argv).trim().parse().unwrap();
            if counted != expected {
                failures.push(format!("{argv:?}: counted {counted}, oracle {expected}"));
            }
        }
    }
    common::assert_none(&failures);
}

#[test]
fn a_timeout_ends_every_count_of_a_large_board() {
    // Past 128 squares, backtracking cube by cube watched the time only
    // when it found a tour: these ran until killed.
    let cases: &[&[&str]] = &[
        &["--size", "14"],
        &["--size", "20", "--start", "a1", "--method", "backtrack"],
        &["--size", "14", "--depth", "1"],
        &["--size", "14", "--jobs", "2"],
        &["--board", "12x13"],
        &["--board", "9x20"],
        &["--size", "30"],
    ];
    for case in cases {
        let started = std::time::Instant::now();
        let output = common::cli::knightsat()
            .arg("count")
            .args(*case)
            .args(["--timeout", "0.5"])
            .timeout(std::time::Duration::from_secs(30))
            .output()
            .unwrap();
        let took = started.elapsed();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(124), "{case:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{case:?}: {stderr}");
        // Generous for a shared machine: the limit is 0.5 s.
        assert!(took.as_secs_f64() < 10.0, "{case:?} took {took:?}");
    }
}

/// Orbit counts with clues, ends and holes, open and closed, on every small
/// board of the knight and the wazir (and the knight's 3x3 ring), by
/// backtracking and by SAT, against the oracle, which moves the demands
/// as it moves a tour to find the transforms that keep them. A closed tour read backwards and turned so that
/// its clue is back on its move keeps the clue (5x6 with a1 on move 16
/// counted 16 orbits, where 8 undirected cycles pass a1), however the
/// anchors are given.
#[test]
fn orbit_counts_with_clues_ends_and_holes_match_the_oracle() {
    use common::count::list_by;
    use knightsat::solve::{Method, Request};
    let shapes = [
        common::Shape::knight(3, 4),
        common::Shape::knight(1, 1),
        common::Shape {
            holes: vec![4],
            ..common::Shape::knight(3, 3)
        },
        common::Shape {
            leaper: (0, 1),
            ..common::Shape::knight(2, 2)
        },
        common::Shape {
            leaper: (0, 1),
            ..common::Shape::knight(2, 4)
        },
        common::Shape {
            leaper: (0, 1),
            ..common::Shape::knight(3, 3)
        },
        common::Shape {
            leaper: (0, 1),
            ..common::Shape::knight(3, 4)
        },
        common::Shape {
            leaper: (0, 1),
            holes: vec![0, 1, 6, 7],
            ..common::Shape::knight(4, 2)
        },
    ];
    let mut failures = Vec::new();
    let mut checked = 0;
    for shape in &shapes {
        let n = shape.squares();
        // No anchor, each square as a start, an end and a clue at each
        // step, and a start with a clue on the square opposite it.
        let mut anchor_sets: Vec<Vec<(usize, usize)>> = vec![Vec::new()];
        for square in 0..n {
            for step in 0..n {
                anchor_sets.push(vec![(step, square)]);
            }
            if square != n - 1 - square {
                anchor_sets.push(vec![(0, square), (n / 2, n - 1 - square)]);
            }
        }
        for closed in [false, true] {
            for anchors in &anchor_sets {
                let demands = common::Demands {
                    closed,
                    clues: anchors.clone(),
                };
                let expected = common::count_orbits_where(shape, &demands) as u64;
                for as_ends in [false, true] {
                    let problem = common::adapters::problem_of(shape, &demands, as_ends);
                    // SAT on one case in five: it runs the same transforms.
                    let methods: &[Method] = if checked % 5 == 0 {
                        &[Method::Backtrack, Method::Sat]
                    } else {
                        &[Method::Backtrack]
                    };
                    for &method in methods {
                        let request = Request {
                            every_tour: true,
                            ..Request::default()
                        };
                        let listing = Listing {
                            limit: None,
                            up_to_symmetry: true,
                        };
                        let found = list_by(&problem, method, &request, listing, |_| Ok(()));
                        checked += 1;
                        match found {
                            Ok(found) if found == expected => {}
                            other => failures.push(format!(
                                "{shape:?} closed {closed} anchors {anchors:?} as ends {as_ends} \
                                 {method:?}: {other:?}, oracle {expected}"
                            )),
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
    common::assert_none(&failures);
}
