//! Cubes are disjoint and exhaustive: on small boards every tour found in a
//! cube extends that cube's prefix, and the per-cube counts add up to the
//! brute-force oracle's count; the parallel count agrees with it too. A
//! sample of cubes is scaled up to an estimate, which claims a 95% interval
//! only where the sample is large enough for its counts' skew, and shows
//! the time per cube in a unit that shows it (ms, µs), not as 0 seconds.

use crate::common;

use common::{Demands, Shape};
use std::sync::Mutex;

use common::cli::knightsat;
use common::count::{count_cube, count_split, estimate, Split};
use knightsat::count::{CUBES_PER_JOB, MAX_AUTOMATIC_CUBES, SQUARES_PER_MOVE_OF_DEPTH};
use knightsat::encoding::EncodingConfig;
use knightsat::model::problem::Problem;
use knightsat::sat::{Setup, DEFAULT_MEMORY_BUDGET_MIB};
use knightsat::solve::{Method, Request};
use knightsat::{cubes, effective_depth};

fn cube_lines(icnf: &str) -> Vec<&str> {
    icnf.lines().filter(|line| line.starts_with("a ")).collect()
}

/// Per-cube counts for `problem` at `depth`, checking that each tour found
/// in a cube starts with the cube's squares and is a tour of `shape`.
fn per_cube_total(shape: &Shape, demands: &Demands, problem: &Problem, depth: usize) -> u64 {
    let config = EncodingConfig::default().keeping_every_tour();
    let cubes = cubes(problem, &config, depth).unwrap();
    let n = problem.board().squares();
    let mut prefixes: Vec<&[usize]> = cubes.iter().map(|c| c.squares.as_slice()).collect();
    prefixes.sort_unstable();
    prefixes.dedup();
    assert_eq!(prefixes.len(), cubes.len(), "two cubes with one prefix");
    let weight = if problem.start_fixed_by_default() {
        n as u64
    } else {
        1
    };
    let mut total = 0;
    let [one, other] = common::sat::built_in();
    for (index, cube) in cubes.iter().enumerate() {
        assert_eq!(cube.squares.len(), effective_depth(depth, n) + 1);
        // Each built-in solver restricts by literals in turn, and the other
        // counts the same cube pinned as clues.
        let (restricting, pinning) = if index % 2 == 0 {
            (&one, &other)
        } else {
            (&other, &one)
        };
        let request = common::sat::request(config.clone(), restricting);
        let mut session = request
            .session(config.prepare(problem).unwrap(), Setup::default())
            .unwrap();
        session.restrict(&cube.literals);
        let mut in_cube = 0;
        while let Some(tour) = session.next_tour().unwrap() {
            assert!(
                tour.squares.starts_with(&cube.squares),
                "a tour outside its cube"
            );
            assert!(common::is_tour_of(shape, demands, &tour.squares));
            in_cube += weight;
            session.block(&tour.squares);
        }
        let pinned = common::sat::request(config.clone(), pinning);
        assert_eq!(
            in_cube,
            count_cube(problem, &pinned, depth, index + 1).unwrap()
        );
        total += in_cube;
    }
    total
}

fn problem_of(shape: &Shape, closed: bool, start: Option<usize>) -> Problem {
    Problem::new(shape.board())
        .closed(closed)
        .with_start(start)
        .unwrap()
}

fn oracle(shape: &Shape, closed: bool, start: Option<usize>) -> u64 {
    let mut demands = Demands {
        closed,
        clues: Vec::new(),
    };
    if let Some(start) = start {
        demands.clues.push((0, start));
    }
    common::tours_of(shape, &demands, usize::MAX).len() as u64
}

fn check(shapes: &[Shape], depths: &[usize], starts: &[Option<usize>]) {
    let mut failures = Vec::new();
    for shape in shapes {
        for closed in [false, true] {
            for &start in starts {
                let demands = Demands {
                    closed,
                    clues: start.map(|s| (0, s)).into_iter().collect(),
                };
                let expected = oracle(shape, closed, start);
                let problem = problem_of(shape, closed, start);
                for &depth in depths {
                    let total = per_cube_total(shape, &demands, &problem, depth);
                    if total != expected {
                        failures.push(format!(
                            "{shape:?} closed={closed} start={start:?} depth {depth}: cubes sum to {total}, oracle {expected}"
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn per_cube_counts_sum_to_the_oracle_up_to_20_squares() {
    let shapes: Vec<Shape> = common::small_boards(20)
        .into_iter()
        .map(|(rows, cols)| Shape::knight(rows, cols))
        .collect();
    check(&shapes, &[1, 2, 3], &[None, Some(0)]);
}

#[test]
fn per_cube_counts_sum_to_the_oracle_on_holes_and_leapers() {
    let shapes = [
        Shape {
            holes: vec![12],
            ..Shape::knight(5, 5)
        },
        Shape {
            holes: vec![0, 7],
            ..Shape::knight(4, 5)
        },
        Shape {
            leaper: (1, 4),
            ..Shape::knight(5, 5)
        },
        Shape {
            leaper: (2, 3),
            ..Shape::knight(5, 6)
        },
    ];
    check(&shapes, &[1, 3], &[None, Some(1)]);
}

#[test]
fn per_cube_counts_sum_to_the_oracle_on_5x5_and_5x6_from_a_corner() {
    let shapes = [Shape::knight(5, 5), Shape::knight(5, 6)];
    check(&shapes, &[2], &[Some(0)]);
}

#[test]
fn parallel_counts_equal_the_oracle() {
    for (rows, cols, closed, start) in [
        (3, 4, false, None),
        (4, 5, false, Some(0)),
        (5, 5, false, Some(0)),
        (3, 10, true, None),
        (5, 6, true, Some(0)),
    ] {
        let shape = Shape::knight(rows, cols);
        let problem = problem_of(&shape, closed, start);
        let expected = oracle(&shape, closed, start);
        for jobs in [1, 2] {
            for depth in [None, Some(2)] {
                let options = Split {
                    jobs,
                    depth,
                    limit: None,
                };
                for backend in common::sat::built_in() {
                    let request = common::sat::request(EncodingConfig::default(), &backend);
                    let found =
                        count_split(&problem, Method::Sat, &request, options, |_| ()).unwrap();
                    assert_eq!(
                        found,
                        expected,
                        "{rows}x{cols} closed={closed} start={start:?} jobs {jobs} depth {depth:?} {}",
                        backend.name()
                    );
                }
            }
        }
    }
}

#[test]
fn a_parallel_count_stops_at_its_limit() {
    let problem = problem_of(&Shape::knight(5, 5), false, Some(0));
    let options = Split {
        jobs: 2,
        depth: Some(2),
        limit: Some(7),
    };
    let found = count_split(&problem, Method::Sat, &Request::default(), options, |_| ()).unwrap();
    assert_eq!(found, 7);
}

#[test]
fn the_automatic_depth_is_a_sixth_of_the_squares_within_the_cube_cap() {
    let config = EncodingConfig::default().keeping_every_tour();
    for (rows, cols, closed, start) in [
        (6, 6, false, None),
        (6, 6, true, Some(0)),
        (5, 5, false, Some(0)),
        (3, 4, false, None),
        (8, 8, false, None),
    ] {
        let problem = problem_of(&Shape::knight(rows, cols), closed, start);
        let n = rows * cols;
        let count_at = |depth| cubes(&problem, &config, depth).unwrap().len();
        for jobs in [1, 2] {
            // A sample of no cube: the automatic depth and its cubes.
            let request = Request {
                memory_budget_mib: DEFAULT_MEMORY_BUDGET_MIB,
                ..Request::default()
            };
            let split = Split {
                jobs,
                ..Split::default()
            };
            let chosen = estimate(&problem, Method::Sat, &request, split, (0, 0), None).unwrap();
            let depth = chosen.depth;
            assert_eq!(chosen.cubes, count_at(depth));
            let case = format!("{rows}x{cols} closed={closed} jobs {jobs}: depth {depth}");
            let deepest = effective_depth(12, n);
            assert!(
                count_at(depth) >= jobs * CUBES_PER_JOB || depth == deepest,
                "{case}"
            );
            assert!(
                depth >= n.div_ceil(SQUARES_PER_MOVE_OF_DEPTH).min(deepest)
                    || count_at(depth + 1) > MAX_AUTOMATIC_CUBES,
                "{case}"
            );
            assert!(
                depth == 1
                    || count_at(depth - 1) < jobs * CUBES_PER_JOB
                    || count_at(depth) <= MAX_AUTOMATIC_CUBES,
                "{case}"
            );
        }
    }
}

#[test]
fn progress_is_reported_for_each_tour_and_each_cube() {
    let shape = Shape::knight(5, 5);
    let problem = problem_of(&shape, false, Some(0));
    let expected = oracle(&shape, false, Some(0));
    let all = cubes(&problem, &EncodingConfig::default().keeping_every_tour(), 2)
        .unwrap()
        .len();
    let reports = Mutex::new(Vec::new());
    let options = Split {
        jobs: 2,
        depth: Some(2),
        limit: None,
    };
    let found = count_split(
        &problem,
        Method::Sat,
        &Request::default(),
        options,
        |progress| {
            reports.lock().unwrap().push(progress);
        },
    )
    .unwrap();
    let reports = reports.into_inner().unwrap();
    assert_eq!(found, expected);
    assert_eq!(reports.len() as u64, expected + all as u64);
    assert!(reports
        .iter()
        .all(|p| p.cubes == all && p.cubes_done <= all && p.tours <= expected));
    assert!(reports
        .iter()
        .any(|p| p.cubes_done == all && p.tours == expected));
    let mut tours: Vec<u64> = reports.iter().map(|p| p.tours).collect();
    tours.sort_unstable();
    tours.dedup();
    assert!(
        (1..=expected).all(|n| tours.binary_search(&n).is_ok()),
        "every tour counted is reported"
    );
}

#[test]
fn the_progress_display_shows_cubes_tours_rate_and_eta_on_a_terminal() {
    // SAT counts every cube (backtracking one per class of symmetric cubes).
    let args = [
        "count", "--size", "5", "--method", "sat", "--jobs", "1", "--depth", "3",
    ];
    let problem = problem_of(&Shape::knight(5, 5), false, None);
    let all = cubes(&problem, &EncodingConfig::default().keeping_every_tour(), 3)
        .unwrap()
        .len();
    let run = common::cli::with_stderr_on_a_terminal(&args);
    assert!(run.success, "{}", run.terminal);
    assert_eq!(
        run.stdout.trim(),
        common::count_tours(5, 5, false, None).to_string()
    );
    for part in [
        format!("/{all} cubes, "),
        " tours, ".into(),
        " tours/s, ".into(),
        " elapsed, ETA ".into(),
    ] {
        assert!(
            run.terminal.contains(&part),
            "no {part:?} in {:?}",
            run.terminal
        );
    }
    let piped = common::cli::knightsat().args(args).assert().success();
    assert!(
        piped.get_output().stderr.is_empty(),
        "no progress when stderr is no terminal"
    );
}

#[test]
fn a_sample_of_every_cube_is_the_exact_count() {
    for (rows, cols, closed, start) in [
        (3, 4, false, None),
        (5, 5, false, Some(0)),
        (3, 10, true, None),
    ] {
        let shape = Shape::knight(rows, cols);
        let problem = problem_of(&shape, closed, start);
        let options = Split {
            jobs: 2,
            depth: Some(2),
            limit: None,
        };
        let estimate = estimate(
            &problem,
            Method::Sat,
            &Request::default(),
            options,
            (usize::MAX, 1),
            None,
        )
        .unwrap();
        let expected = oracle(&shape, closed, start);
        assert_eq!(estimate.sampled, estimate.cubes);
        assert_eq!(estimate.sample_tours, expected);
        assert!((estimate.tours - expected as f64).abs() < 1e-6);
        assert_eq!(estimate.margin, Some(0.0));
    }
}

#[test]
fn a_sample_is_scaled_up_to_all_cubes() {
    let shape = Shape::knight(5, 5);
    let problem = problem_of(&shape, false, Some(0));
    let expected = oracle(&shape, false, Some(0));
    let config = EncodingConfig::default();
    let all = cubes(&problem, &config.keeping_every_tour(), 4)
        .unwrap()
        .len();
    let options = Split {
        jobs: 2,
        depth: Some(4),
        limit: None,
    };
    let request = Request::sat(config.clone(), knightsat::sat::Backend::Cadical);
    let draw = |seed| estimate(&problem, Method::Sat, &request, options, (10, seed), None).unwrap();
    let (first, again, other) = (draw(1), draw(1), draw(2));
    assert_eq!(
        first.sample_tours, again.sample_tours,
        "one seed, one sample"
    );
    for estimate in [first, other] {
        assert_eq!(
            (estimate.cubes, estimate.sampled, estimate.depth),
            (all, 10, 4)
        );
        assert!(estimate.sample_tours <= expected);
        let scaled = estimate.sample_tours as f64 * all as f64 / 10.0;
        assert!((estimate.tours - scaled).abs() < 1e-6);
        assert!(estimate.seconds >= estimate.sample_seconds);
    }
}

#[test]
fn count_sample_prints_an_estimate() {
    let expected = common::count_tours(5, 5, false, Some(0));
    let out = common::cli::stdout_of(&[
        "count", "--size", "5", "--start", "a1", "--depth", "2", "--sample", "1000",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with(&format!("estimate: {expected} ± 0 tours (95%), from ")),
        "{out}"
    );
    assert!(lines[1].starts_with("time: the sample took "), "{out}");
    for refused in [
        &["--sample", "5", "--limit", "3"][..],
        &["--seed", "3"],
        &["--sample", "5", "--method", "warnsdorff"],
        &["--sample", "0"],
    ] {
        common::cli::knightsat()
            .args(["count", "--size", "5"])
            .args(refused)
            .assert()
            .code(2);
    }
}

#[test]
fn the_cubes_command_writes_an_icnf_with_one_line_per_cube() {
    let problem = problem_of(&Shape::knight(4, 5), false, Some(0));
    let icnf =
        common::cli::stdout_of(&["cubes", "--board", "4x5", "--start", "a1", "--depth", "3"]);
    let header = icnf.lines().find(|line| line.starts_with('p')).unwrap();
    assert_eq!(header, "p inccnf");
    assert!(icnf.starts_with("c knightsat "));
    let expected: Vec<String> = cubes(&problem, &EncodingConfig::default(), 3)
        .unwrap()
        .iter()
        .map(|cube| {
            let lits: Vec<String> = cube.dimacs().iter().map(ToString::to_string).collect();
            format!("a {} 0", lits.join(" "))
        })
        .collect();
    assert_eq!(cube_lines(&icnf), expected);
    // The formula is encode's, clause for clause.
    let cnf = common::cli::stdout_of(&["encode", "--board", "4x5", "--start", "a1"]);
    let clauses = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with('c') && !l.starts_with('p') && !l.starts_with('a'))
            .map(String::from)
            .collect()
    };
    assert_eq!(clauses(&icnf), clauses(&cnf));
}

#[test]
#[cfg_attr(
    not(has_cadical),
    ignore = "cadical is not on PATH: run scripts/install-solvers.sh"
)]
fn cadical_agrees_with_knightsat_cube_by_cube() {
    // 4x5 open from a1: some cubes hold tours, some none.
    let problem = problem_of(&Shape::knight(4, 5), false, Some(0));
    let icnf =
        common::cli::stdout_of(&["cubes", "--board", "4x5", "--start", "a1", "--depth", "3"]);
    let lines = cube_lines(&icnf);
    let cubes = cubes(&problem, &EncodingConfig::default(), 3).unwrap();
    let mut formula = String::new();
    for line in icnf.lines().filter(|line| !line.starts_with("a ")) {
        formula.push_str(line);
        formula.push('\n');
    }
    let dir = tempfile::tempdir().unwrap();
    let (mut sat, mut unsat) = (0, 0);
    // The whole iCNF: CaDiCaL solves cube after cube and stops at the first
    // satisfiable one.
    let whole = dir.path().join("all.icnf");
    std::fs::write(&whole, &icnf).unwrap();
    let status = std::process::Command::new("cadical")
        .arg(&whole)
        .output()
        .unwrap();
    // The tours in a cube are those of the problem with the cube pinned.
    let tours_in = |cube: &knightsat::Cube| {
        let pinned = cube.pinned(&problem).unwrap();
        let report = knightsat::count::CountJob {
            method: Method::Sat,
            ..knightsat::count::CountJob::new(&pinned)
        }
        .run()
        .unwrap();
        report.tours().unwrap().to_u64().unwrap()
    };
    let any_tour = cubes.iter().any(|cube| tours_in(cube) > 0);
    assert_eq!(status.status.code(), Some(if any_tour { 10 } else { 20 }));
    // One cube at a time: its answer is knightsat's.
    for (line, cube) in lines.iter().zip(&cubes) {
        let path = dir.path().join("one.icnf");
        std::fs::write(&path, format!("{formula}{line}\n")).unwrap();
        let output = std::process::Command::new("cadical")
            .arg(&path)
            .output()
            .unwrap();
        let tours = tours_in(cube);
        let expected = if tours > 0 { 10 } else { 20 };
        assert_eq!(
            output.status.code(),
            Some(expected),
            "{line}: knightsat counts {tours}"
        );
        if tours > 0 {
            sat += 1;
        } else {
            unsat += 1;
        }
    }
    assert!(
        sat > 0 && unsat > 0,
        "{sat} satisfiable and {unsat} unsatisfiable cubes"
    );
}

#[test]
fn count_with_jobs_equals_count_with_one_job_and_the_oracle() {
    for (board, closed, start, expected) in [
        ("3x4", false, None, common::count_tours(3, 4, false, None)),
        (
            "5x5",
            false,
            Some("a1"),
            common::count_tours(5, 5, false, Some(0)),
        ),
        ("3x10", true, None, common::count_tours(3, 10, true, None)),
    ] {
        let mut args = vec!["count", "--board", board];
        if closed {
            args.push("--closed");
        }
        if let Some(start) = start {
            args.extend(["--start", start]);
        }
        let one = common::cli::stdout_of(&args);
        assert_eq!(one.trim(), expected.to_string(), "{args:?}");
        for jobs in [["--jobs", "2"], ["--jobs", "0"]] {
            let with_jobs: Vec<&str> = args.iter().copied().chain(jobs).collect();
            assert_eq!(common::cli::stdout_of(&with_jobs), one, "{with_jobs:?}");
        }
        let with_depth: Vec<&str> = args
            .iter()
            .copied()
            .chain(["--jobs", "2", "--depth", "4"])
            .collect();
        assert_eq!(common::cli::stdout_of(&with_depth), one, "{with_depth:?}");
    }
}

#[test]
fn orbits_are_not_counted_in_cubes() {
    common::cli::knightsat()
        .args(["count", "--size", "5", "--up-to-symmetry", "--jobs", "2"])
        .assert()
        .code(2);
}

#[test]
fn solve_with_jobs_returns_a_verified_tour_or_proves_there_is_none() {
    for (board, closed, expected) in [
        ("5x5", false, true),
        ("3x4", false, true),
        ("4x4", false, false),
        ("3x4", true, false),
    ] {
        let (rows, cols) = (board[..1].parse().unwrap(), board[2..].parse().unwrap());
        assert_eq!(common::tour_exists(rows, cols, closed, None), expected);
        let mut args = vec![
            "solve",
            "--board",
            board,
            "--no-theory",
            "--format",
            "json",
            "--jobs",
            "2",
        ];
        if closed {
            args.push("--closed");
        }
        let run = common::cli::knightsat().args(&args).assert();
        let output = run.get_output();
        if expected {
            assert_eq!(output.status.code(), Some(0), "{args:?}");
            let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
            let path: Vec<usize> = json["tour"]
                .as_array()
                .unwrap()
                .iter()
                .map(|name| Shape::knight(rows, cols).index_of(name.as_str().unwrap()))
                .collect();
            assert!(
                common::is_tour(rows, cols, closed, &path),
                "{args:?}: {path:?}"
            );
        } else {
            assert_eq!(output.status.code(), Some(20), "{args:?}");
        }
    }
}

/// A depth as long as the tour is refused at once where the walk to it
/// passes more prefixes than the budget holds as cubes (it used to walk
/// nearly every tour first), naming a depth that fits, and that depth
/// solves.
#[test]
fn a_depth_as_long_as_the_tour_is_refused_at_once_with_one_that_fits() {
    for (size, depth) in [("6", "36"), ("7", "49")] {
        let solve = |depth: &str| {
            let args = [
                "solve",
                "--size",
                size,
                "--jobs",
                "2",
                "--depth",
                depth,
                "--memory-budget",
                "64",
                "--timeout",
                "60",
                "--format",
                "json",
            ];
            common::cli::knightsat().args(args).output().unwrap()
        };
        let output = solve(depth);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "depth {depth}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        let fits = stderr
            .split("--depth ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|depth| depth.parse::<usize>().ok())
            .unwrap_or_else(|| panic!("no depth that fits: {stderr}"));
        assert!(
            stderr.contains(&format!("--depth {fits} or less fits")),
            "{stderr}"
        );
        let output = solve(&fits.to_string());
        assert_eq!(output.status.code(), Some(0), "depth {fits}");
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let n: usize = size.parse().unwrap();
        let path: Vec<usize> = json["tour"]
            .as_array()
            .unwrap()
            .iter()
            .map(|name| Shape::knight(n, n).index_of(name.as_str().unwrap()))
            .collect();
        assert!(
            common::is_tour(n, n, false, &path),
            "depth {fits}: {path:?}"
        );
    }
}

/// Counts of every file `cubes --split` wrote, summed.
fn split_and_count(args: &[&str], dir: &std::path::Path) -> u64 {
    let dir_arg = dir.to_str().unwrap();
    let split: Vec<&str> = ["cubes"]
        .into_iter()
        .chain(args.iter().copied())
        .chain(["--depth", "3", "--split", dir_arg])
        .collect();
    common::cli::knightsat().args(&split).assert().success();
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).unwrap();
    let mut lines = manifest.lines();
    assert_eq!(lines.next(), Some("file\tsquares"));
    lines
        .map(|line| {
            let (file, squares) = line.split_once('\t').unwrap();
            let path = dir.join(file);
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(text.contains(&format!("c cube {squares}\n")), "{file}");
            let count = common::cli::stdout_of(&["count", "--cnf", path.to_str().unwrap()]);
            count.trim().parse::<u64>().unwrap()
        })
        .sum()
}

#[test]
fn split_files_count_up_to_the_whole() {
    for (args, expected) in [
        (
            vec!["--board", "5x5", "--start", "a1"],
            common::count_tours(5, 5, false, Some(0)),
        ),
        (
            vec!["--board", "3x4"],
            common::count_tours(3, 4, false, None),
        ),
        (
            vec!["--board", "3x10", "--closed"],
            common::count_tours(3, 10, true, None),
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(split_and_count(&args, dir.path()), expected, "{args:?}");
        let mut count: Vec<&str> = vec!["count"];
        count.extend(&args);
        assert_eq!(common::cli::stdout_of(&count).trim(), expected.to_string());
    }
}

#[test]
#[cfg_attr(
    not(has_cadical),
    ignore = "cadical is not on PATH: run scripts/install-solvers.sh"
)]
fn decode_reads_a_solved_split_file() {
    let dir = tempfile::tempdir().unwrap();
    split_and_count(&["--board", "5x5", "--start", "a1"], dir.path());
    let mut tours = 0;
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "cnf") {
            continue;
        }
        let solved = std::process::Command::new("cadical")
            .arg(&path)
            .output()
            .unwrap();
        let answer = dir.path().join("answer.txt");
        std::fs::write(&answer, &solved.stdout).unwrap();
        let decoded = common::cli::knightsat()
            .args([
                "decode",
                "--cnf",
                path.to_str().unwrap(),
                answer.to_str().unwrap(),
            ])
            .assert();
        let code = decoded.get_output().status.code();
        assert_eq!(
            code,
            solved.status.code().map(|c| if c == 10 { 0 } else { c }),
            "{path:?}"
        );
        tours += u32::from(code == Some(0));
    }
    assert!(tours > 0);
}

#[test]
#[cfg_attr(
    not(has_parallel),
    ignore = "GNU parallel is not on PATH: run scripts/install-solvers.sh"
)]
fn gnu_parallel_over_the_split_files_sums_to_count() {
    let dir = tempfile::tempdir().unwrap();
    let dir_arg = dir.path().to_str().unwrap();
    common::cli::knightsat()
        .args([
            "cubes", "--board", "5x5", "--start", "a1", "--depth", "3", "--split", dir_arg,
        ])
        .assert()
        .success();
    let knightsat = assert_cmd::cargo::cargo_bin("knightsat");
    // The recipe of docs/cubes.md: one job per manifest line, counts summed.
    let output = std::process::Command::new("parallel")
        .current_dir(dir.path())
        .args([
            "--will-cite",
            "--jobs",
            "2",
            "--colsep",
            "\t",
            "--skip-first-line",
        ])
        .arg(format!("{} count --cnf {{1}}", knightsat.display()))
        .arg("::::")
        .arg("manifest.tsv")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let sum: u64 = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| line.trim().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, common::count_tours(5, 5, false, Some(0)));
}

#[test]
fn count_cnf_refuses_a_cube_that_is_no_legal_start() {
    let dir = tempfile::tempdir().unwrap();
    let dir_arg = dir.path().to_str().unwrap();
    common::cli::knightsat()
        .args([
            "cubes", "--board", "3x4", "--depth", "2", "--split", dir_arg,
        ])
        .assert()
        .success();
    let path = dir.path().join("cube-000001.cnf");
    let text = std::fs::read_to_string(&path).unwrap();
    let line = text.lines().find(|l| l.starts_with("c cube ")).unwrap();
    for bad in ["c cube a1 a2 a3", "c cube a1 z9", "c cube a1 b3 a1"] {
        let tampered = dir.path().join("tampered.cnf");
        std::fs::write(&tampered, text.replace(line, bad)).unwrap();
        let run = common::cli::knightsat()
            .args(["count", "--cnf", tampered.to_str().unwrap()])
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
        assert!(stderr.contains("cube"), "{bad}: {stderr}");
    }
}

#[test]
fn the_memory_budget_bounds_all_threads_together() {
    // 3x4 needs about 1 MiB per session (estimates round up).
    let count = [
        "count",
        "--memory-budget",
        "1",
        "--board",
        "3x4",
        "--depth",
        "2",
        "--method",
        "sat",
    ];
    common::cli::knightsat()
        .args(count)
        .args(["--jobs", "1"])
        .assert()
        .success();
    common::cli::knightsat()
        .args(count)
        .args(["--jobs", "2"])
        .assert()
        .code(2);
    let solve = [
        "solve",
        "--memory-budget",
        "1",
        "--board",
        "3x4",
        "--jobs",
        "2",
    ];
    common::cli::knightsat().args(solve).assert().code(2);
}

#[test]
fn a_sample_of_quick_cubes_shows_their_time_in_its_unit() {
    let dir = tempfile::tempdir().unwrap();
    let output = knightsat()
        .args([
            "count", "--board", "3x4", "--sample", "100000", "--depth", "2",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let time = stdout.lines().find(|l| l.starts_with("time:")).unwrap();
    assert!(
        !time.contains(" 0 seconds") && !time.contains("-0"),
        "{time}"
    );
    // "every cube would take about 4.2 ms on 1 thread": a positive number
    // in a unit that shows it.
    let words = time.split("every cube would take about ").nth(1).unwrap();
    let mut parts = words.split_whitespace();
    let value: f64 = parts.next().unwrap().parse().unwrap();
    let unit = parts.next().unwrap();
    assert!(value > 0.0 && ["s", "ms", "µs"].contains(&unit), "{time}");
}

#[test]
fn a_sample_too_small_for_its_skewed_counts_does_not_claim_a_95_percent_interval() {
    // 6x6 open at depth 8: 95% of the 1,290,112 cubes hold no tour, the
    // counts' skewness is 67; a sample of 200 covered the count (6,637,920)
    // in 102 of 200 seeds with the normal interval it called 95%.
    let args = [
        "count",
        "--size",
        "6",
        "--method",
        "backtrack",
        "--depth",
        "8",
        "--sample",
        "200",
        "--seed",
        "1",
    ];
    let out = common::cli::stdout_of(&args);
    let first = out.lines().next().unwrap();
    assert!(!first.contains("(95%)"), "{first}");
    assert!(first.contains("not a 95% interval"), "{first}");
    assert!(first.contains("Cochran's rule"), "{first}");
    // Every cube sampled: the count itself, exact.
    let all = common::cli::stdout_of(&[
        "count",
        "--size",
        "5",
        "--method",
        "backtrack",
        "--depth",
        "3",
        "--sample",
        "488",
    ]);
    assert!(all.starts_with("estimate: 1728 ± 0 tours (95%)"), "{all}");
}
