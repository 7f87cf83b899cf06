//! The feasibility gate: it never says "no tour" where the oracle finds
//! one (boards with holes, leapers, closed or open, starts, ends and
//! clues), it answers the problems that used to hang on every route at
//! once with its reason, it keeps to the time limit on boards of millions
//! of squares, and the default route picks each of its routes.

use crate::common;

use std::time::{Duration, Instant};

use common::cli::knightsat;
use common::{has_tour, tours_of, Demands, Sequence, Shape};
use knightsat::model::problem::{Clue, Problem};
use knightsat::refute;
use knightsat::solve::auto::{CORRIDOR_FROM_SQUARES, RACE_FROM_SQUARES};
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

/// The library's problem for `shape` with `demands`, or `None` when the
/// demands contradict each other on their face (bad input, not a question).
fn problem_of(shape: &Shape, demands: &Demands) -> Option<Problem> {
    let n = shape.squares();
    let mut problem = Problem::new(shape.board()).closed(demands.closed);
    let mut clues = Vec::new();
    for &(step, square) in &demands.clues {
        match step {
            0 => problem = problem.with_start(Some(square)).ok()?,
            s if s == n - 1 && n > 1 && !demands.closed => {
                problem = problem.with_end(Some(square)).ok()?;
            }
            _ => clues.push(Clue { step, square }),
        }
    }
    problem.with_clues(clues).ok()
}

/// Shapes of at most `max` squares: every rectangle, each with no holes
/// and with a few holes drawn at random, for the knight and other leapers.
fn shapes(max: usize, sequence: &mut Sequence) -> Vec<Shape> {
    let mut shapes = Vec::new();
    for rows in 1..=max {
        for cols in rows..=max / rows {
            for leaper in [(1, 2), (1, 3), (2, 3), (0, 1), (1, 1), (1, 4)] {
                let plain = Shape {
                    rows,
                    cols,
                    holes: Vec::new(),
                    leaper,
                };
                shapes.push(plain.clone());
                let cells = rows * cols;
                // (Holes are named by file letter: a to z.)
                let most_holes = if cols <= 26 { 3 } else { 0 };
                for holes in 1..=most_holes.min(cells.saturating_sub(2)) {
                    let mut chosen = Vec::new();
                    while chosen.len() < holes {
                        let cell = sequence.below(cells);
                        if !chosen.contains(&cell) {
                            chosen.push(cell);
                        }
                    }
                    chosen.sort_unstable();
                    shapes.push(Shape {
                        holes: chosen,
                        ..plain.clone()
                    });
                }
            }
        }
    }
    shapes
}

/// Demands to try on a shape: open and closed, with nothing, a start, an
/// end, a start and end, and clues at random steps.
fn demands_for(shape: &Shape, sequence: &mut Sequence) -> Vec<Demands> {
    let n = shape.squares();
    let mut all = Vec::new();
    for closed in [false, true] {
        all.push(Demands {
            closed,
            clues: Vec::new(),
        });
        if n < 2 {
            continue;
        }
        for _ in 0..3 {
            let start = sequence.below(n);
            let end = sequence.below(n);
            let step = sequence.below(n);
            let square = sequence.below(n);
            all.push(Demands {
                closed,
                clues: vec![(0, start)],
            });
            if end != start {
                all.push(Demands {
                    closed,
                    clues: vec![(0, start), (n - 1, end)],
                });
            }
            if step != 0 && square != start {
                all.push(Demands {
                    closed,
                    clues: vec![(0, start), (step, square)],
                });
            }
            if step != n - 1 && square != end {
                all.push(Demands {
                    closed,
                    clues: vec![(step, square), (n - 1, end)],
                });
            }
        }
    }
    all
}

#[test]
fn the_gate_never_refutes_a_problem_the_oracle_solves() {
    let mut sequence = Sequence(20);
    let (mut refuted, mut checked) = (0, 0);
    let mut failures = Vec::new();
    for shape in shapes(20, &mut sequence) {
        if shape.squares() == 0 {
            continue;
        }
        for demands in demands_for(&shape, &mut sequence) {
            let Some(problem) = problem_of(&shape, &demands) else {
                continue;
            };
            checked += 1;
            if let Some(refutation) = refute(&problem) {
                refuted += 1;
                if has_tour(&shape, &demands) {
                    failures.push(format!("{shape:?} {demands:?}: {refutation}"));
                }
            }
        }
    }
    common::assert_none(&failures);
    // The sweep must exercise the gate, not pass it by.
    assert!(checked > 5000, "{checked} problems checked");
    assert!(refuted * 3 > checked, "{refuted} of {checked} refuted");
}

#[test]
fn the_gate_never_refutes_a_board_of_up_to_30_squares_with_a_tour() {
    // Whole boards only (the oracle finds a tour quickly where there is
    // one; the sweep above covers constraints): each tour the oracle finds
    // must pass the gate with its own start, end and a clue of it.
    let mut sequence = Sequence(30);
    let mut failures = Vec::new();
    for shape in shapes(30, &mut sequence) {
        let n = shape.squares();
        if n < 21 {
            continue;
        }
        for closed in [false, true] {
            let free = Demands {
                closed,
                clues: Vec::new(),
            };
            let Some(tour) = tours_of(&shape, &free, 1).pop() else {
                continue;
            };
            let step = sequence.below(n);
            let pinned = Demands {
                closed,
                clues: vec![(0, tour[0]), (step, tour[step]), (n - 1, tour[n - 1])],
            };
            for demands in [free, pinned] {
                let problem = problem_of(&shape, &demands).expect("a tour's own squares agree");
                if let Some(refutation) = refute(&problem) {
                    failures.push(format!("{shape:?} {demands:?}: {refutation}"));
                }
            }
        }
    }
    common::assert_none(&failures);
}

/// The problems that used to hang on some route, with a word of the
/// reason `-v` must give.
const HUNG: [(&[&str], &str); 9] = [
    (&["--size", "12", "--holes", "a1,l12"], "colour"),
    (&["--size", "13", "--closed", "--start", "a1"], "Schwenk"),
    (&["--size", "40", "--leaper", "1,3"], "colour"),
    (&["--size", "40", "--leaper", "0,2"], "colour"),
    (&["--board", "4x14", "--closed", "--start", "a1"], "Schwenk"),
    (&["--board", "4x14", "--closed", "--end", "a1"], "Schwenk"),
    (&["--board", "4x14", "--closed", "--at", "5=c3"], "Schwenk"),
    (&["--size", "120", "--holes", "a1,c1"], "colour"),
    (&["--size", "200", "--leaper", "1,3"], "colour"),
];

/// Every route, as `solve` options.
const ROUTES: [&[&str]; 7] = [
    &[],
    &["--method", "sat"],
    &["--encoding", "successor"],
    &["--method", "warnsdorff"],
    &["--method", "backtrack"],
    &["--solver", "cadical"],
    &["--jobs", "2"],
];

#[test]
fn every_route_answers_the_problems_that_hung_at_once_with_the_reason() {
    for (problem, word) in HUNG {
        for route in ROUTES {
            // Clues are for SAT and backtracking only.
            if route.contains(&"warnsdorff") && problem.contains(&"--at") {
                continue;
            }
            common::cli::knightsat()
                .arg("solve")
                .args(problem)
                .args(route)
                .arg("-v")
                .timeout(Duration::from_secs(30))
                .assert()
                .code(20)
                .stdout("no tour exists for these constraints\n")
                .stderr(contains("feasibility gate").and(contains(word)));
        }
        common::cli::knightsat()
            .arg("count")
            .args(problem)
            .assert()
            .success()
            .stdout("0\n")
            .stderr(contains("feasibility gate").and(contains(word)));
    }
}

#[test]
fn two_boards_joined_by_no_move_are_refuted_by_connectivity() {
    // Two 8x8 boards side by side, two files of holes between them.
    let row = "........##........\n";
    common::cli::knightsat()
        .args([
            "solve",
            "--board-file",
            "-",
            "--encoding",
            "successor",
            "-v",
        ])
        .write_stdin(row.repeat(8))
        .assert()
        .code(20)
        .stderr(contains("not connected"));
}

/// Whether `--method auto`'s answer agrees with the oracle on every small
/// problem, for one tour and for every tour.
#[test]
fn the_default_route_agrees_with_the_oracle() {
    use common::count::{list_by, Listing};
    use knightsat::solve::{Method, Outcome, Request, SolveJob};
    let mut sequence = Sequence(16);
    let mut failures = Vec::new();
    for shape in shapes(16, &mut sequence) {
        if shape.squares() == 0 {
            continue;
        }
        for demands in demands_for(&shape, &mut sequence) {
            let Some(problem) = problem_of(&shape, &demands) else {
                continue;
            };
            let expected = tours_of(&shape, &demands, usize::MAX).len() as u64;
            let found = SolveJob::new(&problem).run();
            match (&found, expected) {
                (Ok(solved), _) if matches!(solved.outcome, Outcome::Tour(_)) == (expected > 0) => {
                }
                _ => failures.push(format!(
                    "{shape:?} {demands:?}: SolveJob {found:?}, oracle {expected} tours"
                )),
            }
            let counted = list_by(
                &problem,
                Method::Auto,
                &Request::default(),
                Listing::default(),
                |_| Ok(()),
            );
            if counted.as_ref().ok() != Some(&expected) {
                failures.push(format!(
                    "{shape:?} {demands:?}: count {counted:?}, oracle {expected}"
                ));
            }
        }
    }
    common::assert_none(&failures);
}

/// Runs `solve` or `count` with `-v` and returns the route it names.
fn route_of(args: &[&str]) -> String {
    let output = common::cli::knightsat()
        .args(args)
        .arg("-v")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    stderr
        .lines()
        .find_map(|line| line.strip_prefix("route: "))
        .unwrap_or_else(|| panic!("{args:?}: no route in {stderr}"))
        .to_string()
}

#[test]
fn the_default_route_picks_each_of_its_routes_and_explicit_flags_win() {
    let plain = route_of(&["solve", "--size", "8"]);
    assert_eq!(plain, "Warnsdorff's rule");
    // Warnsdorff's rule gives up on this one, which has tours.
    let fallback = route_of(&["solve", "--board", "5x6", "--start", "b1", "--end", "c3"]);
    assert!(
        fallback.starts_with("Warnsdorff's rule gave up") && fallback.contains("successor"),
        "{fallback}"
    );
    let clued = route_of(&["solve", "--size", "6", "--at", "10=c3"]);
    assert!(clued.contains("time-indexed"), "{clued}");
    let counted = route_of(&["count", "--size", "5"]);
    assert_eq!(counted, "backtracking, cube by cube");
    // Open, no end fixed, six files: the frontier meets in the middle.
    let square = route_of(&["count", "--size", "6"]);
    assert_eq!(square, "the frontier counter");
    // On two threads it still counts no cubes.
    let shared = route_of(&["count", "--size", "6", "--jobs", "2"]);
    assert_eq!(shared, "the frontier counter");
    let narrow = route_of(&["count", "--board", "3x12"]);
    assert_eq!(narrow, "the frontier counter");
    // A fixed end: both halves of the meet know it, from 36 squares.
    let from_a_corner = route_of(&["count", "--board", "6x7", "--start", "a1"]);
    assert_eq!(from_a_corner, "the frontier counter");
    let both_ends = route_of(&["count", "--size", "6", "--start", "a1", "--end", "b1"]);
    assert_eq!(both_ends, "the frontier counter");
    let small = route_of(&["count", "--board", "5x6", "--start", "a1"]);
    assert_eq!(small, "backtracking, cube by cube");
    let listed = route_of(&["count", "--size", "5", "--limit", "3"]);
    assert_eq!(listed, "backtracking");
    // Closed orbits up to a limit: SAT blocks each orbit whole.
    let orbits = ["--up-to-symmetry", "--limit", "5"];
    let closed_orbits = route_of(&[&["count", "--size", "8", "--closed"], &orbits[..]].concat());
    assert!(closed_orbits.starts_with("SAT"), "{closed_orbits}");
    let open_orbits = route_of(&[&["count", "--size", "7"], &orbits[..]].concat());
    assert_eq!(open_orbits, "backtracking");
    let counted_clues = route_of(&["count", "--size", "5", "--at", "3=c3"]);
    assert!(counted_clues.contains("time-indexed"), "{counted_clues}");
    let explicit = route_of(&["solve", "--size", "8", "--encoding", "time-indexed"]);
    assert!(
        explicit.contains("time-indexed") && explicit.contains("varisat"),
        "{explicit}"
    );
    let solver = route_of(&["solve", "--size", "8", "--solver", "cadical"]);
    assert!(solver.contains("cadical"), "{solver}");
    let counted_sat = route_of(&["count", "--size", "5", "--solver", "varisat"]);
    assert!(counted_sat.contains("SAT"), "{counted_sat}");
}

/// From `RACE_FROM_SQUARES` up the default route races two formulations
/// of a clued board (on a machine with two cores), below it one runs
/// alone; from `CORRIDOR_FROM_SQUARES` up one of the two keeps to a
/// corridor around the clues. Whichever wins, its tour honours every clue,
/// as the oracle's own check says, and `--method sat` runs one formulation
/// alone.
#[test]
fn clued_boards_from_12x12_race_two_formulations_and_the_winner_honours_the_clues() {
    for n in [10, 12, 20] {
        let squares = n * n;
        let size = n.to_string();
        let shape = Shape::knight(n, n);
        let walk = common::cli::stdout_of(&[
            "solve",
            "--size",
            &size,
            "--method",
            "warnsdorff",
            "--format",
            "moves",
        ]);
        let walk: Vec<&str> = walk.split_whitespace().collect();
        assert_eq!(walk.len(), squares, "{walk:?}");
        let demands = Demands {
            closed: false,
            clues: (0..squares)
                .step_by(8)
                .map(|step| (step, shape.index_of(walk[step])))
                .collect(),
        };
        let clue_args: Vec<String> = (0..squares)
            .step_by(8)
            .flat_map(|step| ["--at".to_string(), format!("{}={}", step + 1, walk[step])])
            .collect();
        let mut args = vec!["solve", "--size", &size, "--format", "moves"];
        args.extend(clue_args.iter().map(String::as_str));
        let output = common::cli::knightsat()
            .args(&args)
            .arg("-v")
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let two_cores = std::thread::available_parallelism().map_or(1, usize::from) >= 2;
        assert_eq!(
            stderr.contains("(the first of 2 formulations raced)"),
            two_cores && squares >= RACE_FROM_SQUARES,
            "{n}x{n}: {stderr}"
        );
        if two_cores && squares >= RACE_FROM_SQUARES {
            let entrants: &[&str] = if squares >= CORRIDOR_FROM_SQUARES {
                &[
                    "pairwise at-most-ones (",
                    "bimander at-most-ones in a corridor of slack 4 (",
                ]
            } else {
                &["pairwise at-most-ones (", "bimander at-most-ones ("]
            };
            assert!(
                entrants.iter().any(|entrant| stderr.contains(entrant)),
                "{n}x{n}: {stderr}"
            );
        }
        let tour: Vec<usize> = String::from_utf8_lossy(&output.stdout)
            .split_whitespace()
            .map(|name| shape.index_of(name))
            .collect();
        assert!(common::is_tour_of(&shape, &demands, &tour), "{tour:?}");
        args.extend(["--method", "sat"]);
        let alone = route_of(&args);
        assert!(!alone.contains("raced"), "{alone}");
    }
}

#[test]
fn a_timeout_on_a_large_holed_board_is_kept_and_a_refusal_is_quick() {
    // Before: 2.2 s, 10.8 s and 3.9 s (release), the feasibility gate
    // walking the move graph of a million or four million squares without
    // looking at the clock, and `count` refusing only after the gate. The
    // goal is the limit + 0.3 s, a refusal within 0.5 s (measured 0.29 to
    // 0.34, 0.44 to 0.52 and 0.50 to 0.57 s under a load of 3.5 on 2 cores);
    // the bound leaves a second for a busy machine.
    for (args, code, limit) in [
        (
            &[
                "solve",
                "--board",
                "1000x1000",
                "--holes",
                "c3",
                "--timeout",
                "0.2",
            ][..],
            124,
            0.2,
        ),
        (
            &[
                "solve",
                "--board",
                "2048x2048",
                "--holes",
                "a1,b1",
                "--timeout",
                "0.1",
            ],
            124,
            0.1,
        ),
        // The refusal: the gate gets 0.1 s to prove there is no tour.
        (&["count", "--board", "2048x2048", "--holes", "c3"], 2, 0.5),
    ] {
        let started = Instant::now();
        let output = knightsat().args(args).output().unwrap();
        let took = started.elapsed().as_secs_f64();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(code), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(took < limit + 1.0, "{args:?} took {took:.2} s: {stderr}");
        if code == 124 {
            assert!(
                stderr.contains(&format!("within {limit} s")),
                "{args:?}: {stderr}"
            );
        }
    }
    // Counting it in one search: the gate's time counts against the limit
    // (it was added to it: 2.7 s for a limit of 1 s, release).
    let args = [
        "count",
        "--board",
        "2048x2048",
        "--holes",
        "c3",
        "--method",
        "backtrack",
        "--timeout",
        "0.5",
    ];
    let started = Instant::now();
    let output = knightsat().args(args).output().unwrap();
    let took = started.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(124), "{stderr}");
    assert!(stderr.contains("no answer within 0.5 s"), "{stderr}");
    assert!(took < 1.5, "counting took {took:.2} s: {stderr}");
}
