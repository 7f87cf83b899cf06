//! The successor encoding against the independent oracle (tests/common):
//! it finds a tour exactly when the oracle does, every tour passes the
//! oracle's check, and its counts are the oracle's, with subtours lazy (the
//! cut loop, with and without patching, and cut inside `CaDiCaL`'s search by
//! its watch) and complete (the Chinese remainder encoding), in-process and
//! with every real solver.

use crate::common;

use common::count::{list_by_sat, Listing};
use common::sat::solve;
use common::{Demands, Shape};
use knightsat::encoding::{
    Acyclicity, Amo, EncodingConfig, Laps, PositionCode, Subtours, SuccessorConfig,
};
use knightsat::model::board::Board;
use knightsat::model::problem::Problem;
use knightsat::sat::{Backend, Setup};
use knightsat::solve::{Outcome, Request};

fn successor(subtours: Subtours, symmetry_breaking: bool) -> EncodingConfig {
    SuccessorConfig {
        subtours,
        symmetry_breaking,
        ..SuccessorConfig::default()
    }
    .into()
}

/// Every successor configuration the tests cover.
fn configs() -> Vec<EncodingConfig> {
    let mut configs = Vec::new();
    for subtours in [Subtours::Lazy, Subtours::Complete] {
        for symmetry_breaking in [true, false] {
            configs.push(successor(subtours, symmetry_breaking));
        }
    }
    // The lazy loop cutting each subtour on its own (by default it cuts
    // the groups patching merges them into).
    configs.push(
        SuccessorConfig {
            merged_cuts: false,
            ..SuccessorConfig::default()
        }
        .into(),
    );
    // The complete formula with each redundant position family on or off
    // (the default has the parity, not the support), and in laps: moduli
    // for a few positions and a lap counter for the rest (a modulus 2
    // alone, which the parity fixes, with 15 laps on 30 squares; 3 and 4;
    // 4 and 5, two laps on boards past 20 nodes). Heule's bits: his
    // moduli for every node (2, 3, 5 and past 30 nodes 7), and laps of 6
    // (a one-bit counter and the three's shift register, up to 5 laps),
    // its parity on the counter's lowest bit. The binary ordering
    // encoding: one counter for every node (carries from 20 nodes on), and
    // laps of 8 (three bits, one carry). The unary ordering encoding: one
    // counter for every node, and laps of 5 (four bits, wrapping).
    for (parity, position_support, laps, positions) in [
        (false, false, Laps::Auto, PositionCode::OneHot),
        (true, true, Laps::Auto, PositionCode::OneHot),
        (false, true, Laps::Auto, PositionCode::OneHot),
        (true, false, Laps::Of(2), PositionCode::OneHot),
        (false, false, Laps::Of(12), PositionCode::OneHot),
        (true, true, Laps::Of(20), PositionCode::OneHot),
        (false, true, Laps::Auto, PositionCode::Lfsr),
        (true, false, Laps::Of(6), PositionCode::Lfsr),
        (true, true, Laps::Auto, PositionCode::Binary),
        (false, false, Laps::Of(8), PositionCode::Binary),
        (true, false, Laps::Auto, PositionCode::Unary),
        (false, true, Laps::Of(5), PositionCode::Unary),
    ] {
        configs.push(
            SuccessorConfig {
                subtours: Subtours::Complete,
                symmetry_breaking: false,
                parity,
                position_support,
                laps,
                positions,
                ..SuccessorConfig::default()
            }
            .into(),
        );
    }
    // The complete formula by vertex elimination instead of positions,
    // with and without symmetry breaking, and with sequential at-most-ones.
    for (symmetry_breaking, amo) in [(false, Amo::Pairwise), (true, Amo::Sequential)] {
        configs.push(
            SuccessorConfig {
                subtours: Subtours::Complete,
                acyclicity: Acyclicity::VertexElimination,
                symmetry_breaking,
                amo,
                ..SuccessorConfig::default()
            }
            .into(),
        );
    }
    configs
}

/// The requests that solve `config`: each built-in solver, and for the
/// lazy formula `CaDiCaL` with its subtours watched inside the search
/// (`--watch-subtours`).
fn requests_for(config: &EncodingConfig) -> Vec<Request> {
    let mut requests: Vec<Request> = common::sat::built_in()
        .iter()
        .map(|backend| common::sat::request(config.clone(), backend))
        .collect();
    if matches!(config, EncodingConfig::Successor(c) if c.subtours == Subtours::Lazy) {
        requests.push(Request {
            watch_subtours: true,
            ..common::sat::request(config.clone(), &Backend::Cadical)
        });
    }
    requests
}

/// Every request the tests cover: [`requests_for`] every configuration.
fn requests() -> Vec<Request> {
    configs().iter().flat_map(requests_for).collect()
}

/// A request in a failure's words.
fn label(request: &Request) -> String {
    format!(
        "{:?} {}{}",
        request.config,
        request.backend.name(),
        if request.watch_subtours {
            " watching subtours"
        } else {
            ""
        }
    )
}

/// One tour as `request` says, patching subtours where it can.
fn patched(problem: &Problem, request: &Request) -> Result<Outcome, String> {
    solve(problem, request)
        .map(|solved| solved.outcome)
        .map_err(|e| e.to_string())
}

/// One tour by the cut loop alone (no patching): a session's first tour,
/// and the subtours its watch cut during the search.
fn by_cuts_alone(problem: &Problem, request: &Request) -> (Result<Outcome, String>, u64) {
    let setup = Setup {
        watch_subtours: request.watch_subtours,
        ..Setup::default()
    };
    let mut session = match request
        .config
        .prepare(problem)
        .map_err(|e| e.to_string())
        .and_then(|encoding| request.session(encoding, setup).map_err(|e| e.to_string()))
    {
        Ok(session) => session,
        Err(error) => return (Err(error), 0),
    };
    let outcome = session
        .next_tour()
        .map(|tour| tour.map_or(Outcome::NoTour, Outcome::Tour))
        .map_err(|e| e.to_string());
    (outcome, session.subtour_loop().watched)
}

/// Compares one answer with the oracle's; pushes what is wrong.
fn judge(
    case: &str,
    outcome: Result<Outcome, String>,
    shape: &Shape,
    demands: &Demands,
    failures: &mut Vec<String>,
) {
    let expected = common::has_tour(shape, demands);
    match outcome {
        Ok(Outcome::Tour(tour)) => {
            if !expected {
                failures.push(format!("{case}: a tour the oracle says cannot exist"));
            }
            if !common::is_tour_of(shape, demands, &tour.squares) {
                failures.push(format!(
                    "{case}: not a tour by the oracle: {:?}",
                    tour.names()
                ));
            }
        }
        Ok(Outcome::NoTour) if expected => {
            failures.push(format!("{case}: no tour, but the oracle found one"));
        }
        Ok(Outcome::NoTour) => {}
        Err(error) => failures.push(format!("{case}: {error}")),
    }
}

fn demands(closed: bool, start: Option<usize>) -> Demands {
    Demands {
        closed,
        clues: start.map(|s| (0, s)).into_iter().collect(),
    }
}

#[test]
fn successor_finds_a_tour_exactly_when_the_oracle_does_up_to_30_squares() {
    let mut failures = Vec::new();
    let mut watched = 0;
    for (rows, cols) in common::small_boards(30) {
        let shape = Shape::knight(rows, cols);
        for closed in [false, true] {
            for start in [None, Some(0)] {
                let problem = common::adapters::plain_problem(rows, cols, closed, start);
                let demands = demands(closed, start);
                for request in requests() {
                    let case = format!(
                        "{rows}x{cols} closed={closed} start={start:?} {}",
                        label(&request)
                    );
                    let outcome = patched(&problem, &request);
                    judge(&case, outcome, &shape, &demands, &mut failures);
                    let (cut, cut_inside) = by_cuts_alone(&problem, &request);
                    watched += cut_inside;
                    judge(
                        &format!("{case} (cuts alone)"),
                        cut,
                        &shape,
                        &demands,
                        &mut failures,
                    );
                }
            }
        }
    }
    common::assert_none(&failures);
    // Or the watched requests were searches without their watch.
    assert!(watched > 0, "no watch cut a subtour during a search");
}

#[test]
fn holes_other_leapers_and_fixed_ends_agree_with_the_oracle() {
    let mut shapes = vec![
        Shape {
            holes: vec![0],
            ..Shape::knight(5, 5)
        },
        Shape {
            holes: vec![7, 14],
            ..Shape::knight(5, 6)
        },
        Shape {
            holes: vec![12],
            ..Shape::knight(5, 5)
        },
        Shape {
            leaper: (0, 1),
            ..Shape::knight(4, 5)
        },
        Shape {
            leaper: (1, 1),
            ..Shape::knight(3, 4)
        },
        Shape {
            leaper: (2, 3),
            ..Shape::knight(5, 6)
        },
        Shape {
            leaper: (1, 3),
            ..Shape::knight(4, 4)
        },
    ];
    shapes.push(Shape {
        leaper: (0, 1),
        holes: vec![6],
        ..Shape::knight(5, 6)
    });
    let mut failures = Vec::new();
    for shape in &shapes {
        let n = shape.squares();
        let graph = shape.graph();
        for closed in [false, true] {
            // No ends, a start, an end, and both (for closed tours, the end
            // a move from the start).
            let mut ends = vec![(None, None), (Some(0), None), (None, Some(n - 1))];
            ends.extend(graph[0].iter().map(|&e| (Some(0), Some(e))));
            for (start, end) in ends {
                let problem = Problem::new(shape.board())
                    .closed(closed)
                    .with_start(start)
                    .and_then(|p| p.with_end(end))
                    .unwrap();
                let mut clues: Vec<(usize, usize)> = start.map(|s| (0, s)).into_iter().collect();
                clues.extend(end.map(|e| (n - 1, e)));
                let demands = Demands { closed, clues };
                for request in requests() {
                    let case = format!("{shape:?} {demands:?} {}", label(&request));
                    let outcome = patched(&problem, &request);
                    judge(&case, outcome, shape, &demands, &mut failures);
                    let (cut, _) = by_cuts_alone(&problem, &request);
                    judge(
                        &format!("{case} (cuts alone)"),
                        cut,
                        shape,
                        &demands,
                        &mut failures,
                    );
                }
            }
        }
    }
    common::assert_none(&failures);
}

/// Counts every tour of `problem` with `config` as each of its requests
/// ([`requests_for`]) says (which must agree), checking each tour with the
/// oracle.
fn count(problem: &Problem, config: &EncodingConfig, shape: &Shape, closed: bool) -> u64 {
    let demands = demands(closed, problem.start());
    let counts: Vec<(String, u64)> = requests_for(config)
        .iter()
        .map(|request| {
            let count = list_by_sat(problem, request, Listing::default(), |tour| {
                assert!(
                    common::is_tour_of(shape, &demands, &tour.squares),
                    "{}: {:?}",
                    label(request),
                    tour.names()
                );
                Ok(())
            })
            .unwrap();
            (label(request), count)
        })
        .collect();
    for (label, count) in &counts[1..] {
        assert_eq!(*count, counts[0].1, "{label} against {}", counts[0].0);
    }
    counts[0].1
}

#[test]
fn counts_equal_the_oracle_on_every_board_up_to_20_squares() {
    let mut failures = Vec::new();
    for (rows, cols) in common::small_boards(20) {
        let shape = Shape::knight(rows, cols);
        for closed in [false, true] {
            for start in [None, Some(0)] {
                let expected = common::count_tours(rows, cols, closed, start);
                let problem = common::adapters::plain_problem(rows, cols, closed, start);
                for config in configs() {
                    let found = count(&problem, &config, &shape, closed);
                    if found != expected {
                        failures.push(format!(
                            "{rows}x{cols} closed={closed} start={start:?} {config:?}: {found}, the oracle {expected}"
                        ));
                    }
                }
            }
        }
    }
    common::assert_none(&failures);
}

#[test]
fn counts_equal_the_oracle_on_larger_boards() {
    // 5x5 open from a1: 304 (OEIS A165134 gives 1728 from all squares);
    // 3x10 and 5x6 closed from a1; 3x7 open from every square.
    let cases = [
        (5, 5, false, Some(0)),
        (3, 10, true, Some(0)),
        (5, 6, true, None),
        (3, 7, false, None),
    ];
    for (rows, cols, closed, start) in cases {
        let expected = common::count_tours(rows, cols, closed, start);
        let problem = common::adapters::plain_problem(rows, cols, closed, start);
        for subtours in [Subtours::Lazy, Subtours::Complete] {
            let config = successor(subtours, true);
            let found = count(&problem, &config, &Shape::knight(rows, cols), closed);
            assert_eq!(
                found, expected,
                "{rows}x{cols} closed={closed} {subtours:?}"
            );
        }
    }
}

#[test]
fn orbit_counts_equal_the_oracle() {
    for (rows, cols, closed) in [(5, 5, false), (3, 4, false), (5, 6, true), (3, 8, true)] {
        for start in [None, Some(0)] {
            let expected = common::count_orbits(rows, cols, closed, start) as u64;
            let problem = common::adapters::plain_problem(rows, cols, closed, start);
            for subtours in [Subtours::Lazy, Subtours::Complete] {
                let config = successor(subtours, true);
                let options = Listing {
                    up_to_symmetry: true,
                    ..Listing::default()
                };
                for backend in common::sat::built_in() {
                    let request = common::sat::request(config.clone(), &backend);
                    let found = list_by_sat(&problem, &request, options, |_| Ok(())).unwrap();
                    assert_eq!(
                        found,
                        expected,
                        "{rows}x{cols} closed={closed} start={start:?} {subtours:?} {}",
                        backend.name()
                    );
                }
            }
        }
    }
}

#[test]
fn the_two_encodings_count_the_same_tours() {
    for (rows, cols, closed) in [(3, 4, false), (4, 5, false), (3, 10, true), (5, 6, true)] {
        let problem = common::adapters::plain_problem(rows, cols, closed, None);
        let time_indexed = list_by_sat(
            &problem,
            &common::sat::request(EncodingConfig::default(), &Backend::Varisat),
            Listing::default(),
            |_| Ok(()),
        )
        .unwrap();
        let lazy = list_by_sat(
            &problem,
            &common::sat::request(successor(Subtours::Lazy, true), &Backend::Cadical),
            Listing::default(),
            |_| Ok(()),
        )
        .unwrap();
        assert_eq!(lazy, time_indexed, "{rows}x{cols} closed={closed}");
    }
}

#[test]
fn large_boards_are_toured_in_process() {
    // Beyond the time-indexed encoding's 8192 squares: 100x100 is 10,000.
    for (size, closed) in [(30, false), (40, true), (100, true)] {
        let problem = common::adapters::plain_problem(size, size, closed, None);
        for backend in common::sat::built_in() {
            let request = common::sat::request(successor(Subtours::Lazy, true), &backend);
            let outcome = patched(&problem, &request).unwrap();
            let Outcome::Tour(tour) = outcome else {
                panic!("{size}x{size} closed={closed}: {outcome:?}");
            };
            assert!(
                common::is_tour(size, size, closed, &tour.squares),
                "{size}x{size} {}",
                backend.name()
            );
        }
    }
}

/// Open and closed boards with and without tours, for the real solvers.
fn solver_cases() -> Vec<(usize, usize, bool, Option<usize>)> {
    vec![
        (3, 4, false, None),
        (5, 5, false, Some(0)),
        (6, 6, true, None),
        (5, 6, true, Some(7)),
        (8, 8, false, None),
        (4, 4, false, None),
        (5, 5, true, None),
        (3, 6, true, None),
    ]
}

fn agrees_with_the_oracle_by(solver: &str) {
    let mut failures = Vec::new();
    for (rows, cols, closed, start) in solver_cases() {
        let problem = common::adapters::plain_problem(rows, cols, closed, start);
        let shape = Shape::knight(rows, cols);
        for subtours in [Subtours::Lazy, Subtours::Complete] {
            let config = successor(subtours, true);
            let case =
                format!("{solver} {rows}x{cols} closed={closed} start={start:?} {subtours:?}");
            let outcome = solve(&problem, &common::sat::program_request(solver, config))
                .map(|solved| solved.outcome)
                .map_err(|e| e.to_string());
            judge(
                &case,
                outcome,
                &shape,
                &demands(closed, start),
                &mut failures,
            );
        }
    }
    common::assert_none(&failures);
}

macro_rules! solver_tests {
    ($name:ident, $cfg:ident, $program:literal) => {
        #[test]
        #[cfg_attr(not($cfg), ignore = concat!($program, " is not on PATH: run scripts/install-solvers.sh"))]
        fn $name() {
            agrees_with_the_oracle_by($program);
        }
    };
}

solver_tests!(kissat_agrees_with_the_oracle, has_kissat, "kissat");
solver_tests!(cadical_agrees_with_the_oracle, has_cadical, "cadical");
solver_tests!(minisat_agrees_with_the_oracle, has_minisat, "minisat");
solver_tests!(picosat_agrees_with_the_oracle, has_picosat, "picosat");

#[test]
#[cfg_attr(
    not(has_kissat),
    ignore = "kissat is not on PATH: run scripts/install-solvers.sh"
)]
fn kissat_strict_accepts_every_emitted_successor_file() {
    let dir = tempfile::tempdir().unwrap();
    for (index, (rows, cols, closed, start)) in solver_cases().into_iter().enumerate() {
        let problem = common::adapters::plain_problem(rows, cols, closed, start);
        for (k, split) in [None, Some(3)].into_iter().enumerate() {
            let config: EncodingConfig = SuccessorConfig {
                subtours: Subtours::Complete,
                max_clause_len: split,
                ..SuccessorConfig::default()
            }
            .into();
            let path = dir.path().join(format!("{index}-{k}.cnf"));
            let encoding = config.prepare(&problem).unwrap();
            knightsat::cnf_file::write_cnf_file(&*encoding, &path).unwrap();
            assert!(
                common::kissat_strict_accepts(&path),
                "kissat --strict on {rows}x{cols} closed={closed}"
            );
        }
    }
}

#[test]
fn a_lazy_formula_is_never_written_alone() {
    let problem = common::adapters::plain_problem(5, 5, false, None);
    let encoding = successor(Subtours::Lazy, true).prepare(&problem).unwrap();
    let error = knightsat::cnf_file::write_cnf(&*encoding, Vec::new()).unwrap_err();
    assert!(error.to_string().contains("lazy"), "{error}");
}

#[test]
fn the_move_numbering_is_the_documented_one() {
    // m(s->w) = 1 + offset(s) + k; on 3x4 a1 (index 0) has neighbours b3
    // (index 9) and c2 (index 6): ascending, c2 is k = 0, b3 is k = 1.
    let board = Board::new(3, 4).unwrap();
    let problem = Problem::new(board.clone());
    let config = SuccessorConfig {
        subtours: Subtours::Complete,
        ..SuccessorConfig::default()
    };
    let encoding = knightsat::encoding::Successor::new(&problem, config).unwrap();
    let moves = encoding.moves();
    let c2 = board.parse_square("c2").unwrap();
    let b3 = board.parse_square("b3").unwrap();
    assert_eq!(moves.step(0, c2).unwrap().to_dimacs(), 1);
    assert_eq!(moves.step(0, b3).unwrap().to_dimacs(), 2);
    // b1 (index 1) comes next: its first move is variable 3.
    let b1_first = *moves.neighbours(1).first().unwrap();
    assert_eq!(moves.step(1, b1_first).unwrap().to_dimacs(), 3);
    let arcs: usize = (0..12).map(|s| moves.neighbours(s).len()).sum();
    assert_eq!(moves.first(0).to_dimacs() as usize, arcs + 1);
    assert_eq!(moves.last(0).to_dimacs() as usize, arcs + 12 + 1);
}

#[test]
fn bad_combinations_get_one_line_errors() {
    let refused: &[&[&str]] = &[
        &[
            "solve",
            "--size",
            "5",
            "--encoding",
            "successor",
            "--blocks",
            "2x2",
        ],
        &[
            "solve",
            "--size",
            "5",
            "--encoding",
            "successor",
            "--no-reachability",
        ],
        &["encode", "--size", "5", "--position-support"],
        &["encode", "--size", "5", "--lap-length", "420"],
        &["encode", "--size", "5", "--positions", "lfsr"],
        &["encode", "--size", "5", "--no-merged-cuts"],
        &[
            "solve",
            "--size",
            "5",
            "--encoding",
            "time-indexed",
            "--no-merged-cuts",
        ],
        &["solve", "--size", "5", "--subtours", "lazy"],
        &["solve", "--size", "6", "--watch-subtours"],
        &[
            "solve",
            "--size",
            "6",
            "--solver",
            "varisat",
            "--watch-subtours",
        ],
        &[
            "solve",
            "--size",
            "6",
            "--encoding",
            "successor",
            "--jobs",
            "2",
        ],
        &[
            "count",
            "--size",
            "5",
            "--encoding",
            "successor",
            "--depth",
            "2",
        ],
        &[
            "cubes",
            "--size",
            "5",
            "--encoding",
            "successor",
            "--depth",
            "2",
        ],
        &[
            "encode",
            "--size",
            "5",
            "--encoding",
            "successor",
            "--subtours",
            "lazy",
        ],
        &[
            "solve",
            "--size",
            "4",
            "--encoding",
            "successor",
            "--proof",
            "/nonexistent/p.drat",
        ],
    ];
    for args in refused {
        let output = common::cli::knightsat().args(*args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.contains("encoding") || stderr.contains("subtours"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn acyclicity_is_refused_where_no_complete_successor_formula_is() {
    // The time-indexed encoding (encode's default on a board) and the
    // successor encoding's lazy loop (solve's) have no use for it.
    for args in [
        &["encode", "--size", "5", "--acyclicity", "positions"][..],
        &[
            "solve",
            "--size",
            "5",
            "--encoding",
            "successor",
            "--acyclicity",
            "vertex-elimination",
        ],
    ] {
        let output = common::cli::knightsat().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains("--acyclicity"), "{args:?}: {stderr}");
    }
}

#[test]
#[cfg_attr(
    not(has_minisat),
    ignore = "minisat is not on PATH: run scripts/install-solvers.sh"
)]
fn encode_writes_the_complete_formula_and_decode_reads_it() {
    // minisat's answer for the complete successor CNF decodes into a tour,
    // with the moduli covering every node and with laps of 7 (6 laps and
    // a lap counter on 6x6), one-hot and in Heule's bits (moduli 2, 3, 5
    // and 7 for 36 nodes, each register in the formula), and in one binary
    // counter with carries, and in one unary counter; and by vertex
    // elimination, with no positions.
    let cases: [&[&str]; 7] = [
        &[],
        &["--lap-length", "7"],
        &["--positions", "lfsr"],
        &["--positions", "lfsr", "--lap-length", "7"],
        &["--positions", "binary"],
        &["--positions", "unary"],
        &["--acyclicity", "vertex-elimination"],
    ];
    for options in cases {
        let laps = options.contains(&"--lap-length");
        let dir = tempfile::tempdir().unwrap();
        let cnf = dir.path().join("t.cnf");
        common::cli::knightsat()
            .args([
                "encode",
                "--size",
                "6",
                "--closed",
                "--encoding",
                "successor",
            ])
            .args(options)
            .arg("-o")
            .arg(&cnf)
            .assert()
            .success();
        let text = std::fs::read_to_string(&cnf).unwrap();
        assert!(text.contains("c option encoding successor"), "{text:.500}");
        assert!(text.contains("c option subtours complete"));
        assert_eq!(
            text.contains("c family position-lap-ends"),
            laps,
            "{options:?}"
        );
        let eliminated = options.contains(&"vertex-elimination");
        assert_eq!(
            text.contains("c family acyclic-by-elimination"),
            eliminated,
            "{options:?}"
        );
        assert_eq!(text.contains("c family position-advance"), !eliminated);
        for code in ["lfsr", "binary", "unary"] {
            assert_eq!(
                text.contains(&format!("c option positions {code}\n")),
                options.contains(&code),
                "{options:?}"
            );
        }
        let board = Board::new(6, 6).unwrap();
        let squares: Vec<usize> = common::cli::minisat_decoded(&cnf)
            .iter()
            .map(|n| board.parse_square(n).unwrap())
            .collect();
        assert!(common::is_tour(6, 6, true, &squares), "{options:?}");
    }
}

#[test]
fn encode_writes_the_complete_successor_formula_past_the_time_indexed_limit() {
    // 1x8193 has one square more than the time-indexed encoding takes:
    // with no encoding named, encode writes the successor encoding whole,
    // the same bytes as when it is named (a knight cannot move on it, so
    // the formula is quick to write; the library's rule is tested at the
    // limit itself in solve::auto).
    let written = |args: &[&str]| {
        common::cli::stdout_of(&[&["encode", "--closed", "--board", "1x8193"][..], args].concat())
    };
    let past = written(&[]);
    assert_eq!(past, written(&["--encoding", "successor"]));
    assert!(past.contains("c option subtours complete"), "{past:.800}");
}

/// The squares `knightsat decode` reads from a solver's `result` for the
/// 6x6 formula `cnf`, which it must decode.
fn decoded_6x6(cnf: &std::path::Path, result: &std::path::Path) -> Vec<usize> {
    let board = Board::new(6, 6).unwrap();
    common::cli::decoded_words(cnf, result)
        .iter()
        .map(|n| board.parse_square(n).unwrap())
        .collect()
}

#[test]
fn a_model_that_is_no_cover_by_cycles_is_a_clear_error() {
    use knightsat::encoding::{Encoding, Model};
    let board = Board::new(3, 4).unwrap();
    let problem = Problem::new(board);
    let config = SuccessorConfig {
        subtours: Subtours::Complete,
        ..SuccessorConfig::default()
    };
    let encoding = knightsat::encoding::Successor::new(&problem, config).unwrap();
    let moves = encoding.moves();
    let highest = moves.last(11).to_dimacs() as usize;
    // Every square ends the tour, and the tour starts on a1: one move out
    // of every node, but twelve into the virtual node.
    let mut values = vec![Some(false); highest + 1];
    for s in 0..12 {
        values[moves.last(s).to_dimacs() as usize] = Some(true);
    }
    values[moves.first(0).to_dimacs() as usize] = Some(true);
    let error = encoding
        .squares_of(&Model::new(values.clone()))
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("two moves enter the virtual node"),
        "{error}"
    );
    // A second move out of a1 is named as such.
    let a1_out = moves.step(0, moves.neighbours(0)[0]).unwrap();
    values[a1_out.to_dimacs() as usize] = Some(true);
    let error = encoding.squares_of(&Model::new(values)).unwrap_err();
    assert!(error.to_string().contains("two moves leave a1"), "{error}");
}

/// Clue sets for `shape`: from a real tour where there is one (so some
/// cases have tours), and random ones (so some contradict each other or
/// the board). Each is (step, square) pairs with distinct steps and
/// squares, sorted by step.
fn clue_sets(
    shape: &Shape,
    closed: bool,
    random: &mut common::Sequence,
) -> Vec<Vec<(usize, usize)>> {
    let n = shape.squares();
    let tours = common::tours_of(
        shape,
        &Demands {
            closed,
            clues: vec![],
        },
        50,
    );
    let mut sets = Vec::new();
    for case in 0..3 {
        let count = 1 + random.below(3);
        let tour =
            (case < 2 && !tours.is_empty()).then(|| tours[random.below(tours.len())].as_slice());
        sets.extend(common::random_clues(n, count, tour, random));
    }
    sets
}

#[test]
fn clues_pinned_through_positions_agree_with_the_oracle_and_the_time_indexed_encoding() {
    // The feasibility gate is off, so that the formula itself must refute
    // the contradictory clue sets.
    let mut random = common::Sequence(23);
    let mut failures = Vec::new();
    let (mut cases, mut with_tours) = (0, 0);
    for (rows, cols) in common::small_boards(30) {
        let shape = Shape::knight(rows, cols);
        for closed in [false, true] {
            for (i, clues) in clue_sets(&shape, closed, &mut random)
                .into_iter()
                .enumerate()
            {
                let demands = Demands {
                    closed,
                    clues: clues.clone(),
                };
                let problem = common::adapters::problem_of(&shape, &demands, i % 2 == 0);
                let expected = common::tours_of(&shape, &demands, usize::MAX).len() as u64;
                cases += 1;
                with_tours += usize::from(expected > 0);
                for (j, subtours) in [Subtours::Lazy, Subtours::Complete].into_iter().enumerate() {
                    let config = successor(subtours, true);
                    let backend = &common::sat::built_in()[(i + j) % 2];
                    let mut request = common::sat::request(config.clone(), backend);
                    request.gate = false;
                    let case = format!(
                        "{rows}x{cols} closed={closed} clues={clues:?} {subtours:?} {}",
                        backend.name()
                    );
                    let outcome = solve(&problem, &request)
                        .map(|solved| solved.outcome)
                        .map_err(|e| e.to_string());
                    judge(&case, outcome, &shape, &demands, &mut failures);
                }
                let counted = count_clued(
                    &problem,
                    &successor(Subtours::Complete, true),
                    &shape,
                    &demands,
                );
                if counted != expected {
                    failures.push(format!("{rows}x{cols} closed={closed} clues={clues:?}: successor counted {counted}, oracle {expected}"));
                }
                if i == 0 {
                    let time_indexed =
                        count_clued(&problem, &EncodingConfig::default(), &shape, &demands);
                    if time_indexed != counted {
                        failures.push(format!("{rows}x{cols} closed={closed} clues={clues:?}: successor counted {counted}, time-indexed {time_indexed}"));
                    }
                }
            }
        }
    }
    common::assert_none(&failures);
    assert!(
        cases > 100 && with_tours > 20,
        "{cases} cases, {with_tours} with tours: too few to test"
    );
}

/// Counts every tour of the clued `problem` with `config` on varisat,
/// without the feasibility gate, checking each tour with the oracle.
fn count_clued(
    problem: &Problem,
    config: &EncodingConfig,
    shape: &Shape,
    demands: &Demands,
) -> u64 {
    let mut request = common::sat::request(config.clone(), &Backend::Varisat);
    request.gate = false;
    list_by_sat(problem, &request, Listing::default(), |tour| {
        assert!(
            common::is_tour_of(shape, demands, &tour.squares),
            "{config:?}: {:?}",
            tour.names()
        );
        Ok(())
    })
    .unwrap()
}

#[test]
#[cfg_attr(
    not(has_kissat),
    ignore = "kissat is not on PATH: run scripts/install-solvers.sh"
)]
fn clued_successor_files_pass_kissat_strict_and_decode_into_tours_that_keep_the_clues() {
    let dir = tempfile::tempdir().unwrap();
    let shape = Shape::knight(6, 6);
    for closed in [false, true] {
        // Clues from a tour the oracle finds: steps 4 and 17, and the
        // last step's square as the clue of move 36 for closed tours.
        let tour = &common::tours_of(
            &shape,
            &Demands {
                closed,
                clues: vec![],
            },
            1,
        )[0];
        let clues = [(4, tour[4]), (17, tour[17]), (35, tour[35])];
        let names = |square: usize| Board::new(6, 6).unwrap().name(square);
        let cnf = dir.path().join(format!("clued-{closed}.cnf"));
        let mut encode = common::cli::knightsat();
        encode.args(["encode", "--size", "6", "--encoding", "successor", "-o"]);
        encode.arg(&cnf);
        if closed {
            encode.arg("--closed");
        }
        for (step, square) in clues {
            encode.arg(format!("--at={}={}", step + 1, names(square)));
        }
        encode.assert().success();
        assert!(common::kissat_strict_accepts(&cnf), "closed={closed}");
        let answer = std::process::Command::new("kissat")
            .arg("-q")
            .arg(&cnf)
            .output()
            .unwrap();
        assert_eq!(answer.status.code(), Some(10), "closed={closed}");
        let result = dir.path().join(format!("clued-{closed}.out"));
        std::fs::write(&result, &answer.stdout).unwrap();
        let squares = decoded_6x6(&cnf, &result);
        let demands = Demands {
            closed,
            clues: clues.to_vec(),
        };
        assert!(
            common::is_tour_of(&shape, &demands, &squares),
            "closed={closed}: {squares:?}"
        );
    }
}
