//! Backtracking split into cubes: each cube's count is the brute-force
//! oracle's count of the tours that begin with the cube's squares, so the
//! cubes add up to the oracle's count, at several depths, with and without
//! a start, with holes and other leapers; threads change nothing; any
//! partition of the cube numbers into ranges adds up to the whole, and the
//! sum refuses a missing or a repeated cube.

use crate::common;

use std::collections::HashMap;

use common::count::{count_range, count_split, estimate, Split};
use common::{Demands, Sequence, Shape};
use knightsat::count::sum_tallies;
use knightsat::count::tally::{CubeRange, CubeSum, CubeTally, CubeTours, LineKind, TallyError};
use knightsat::encoding::EncodingConfig;
use knightsat::model::problem::Problem;
use knightsat::solve::{Method, Request};
use knightsat::{cube_count, effective_depth};

fn problem_of(shape: &Shape, closed: bool, start: Option<usize>) -> Problem {
    Problem::new(shape.board())
        .closed(closed)
        .with_start(start)
        .unwrap()
}

/// Every cube of `depth` counted by backtracking, one range of cube numbers
/// at a time as `ranges` splits them.
fn tallies(problem: &Problem, depth: usize, ranges: &[CubeRange], jobs: usize) -> Vec<CubeTally> {
    let mut found = Vec::new();
    for &range in ranges {
        let (_, tallies) = count_range(
            problem,
            Method::Backtrack,
            &Request::default(),
            (depth, range),
            jobs,
        )
        .unwrap();
        found.extend(tallies);
    }
    found
}

/// The oracle's count; with no start, closed tours from a1, each standing
/// for its N rotations (faster than from every square).
fn oracle_count(rows: usize, cols: usize, closed: bool, start: Option<usize>) -> u64 {
    match (closed, start) {
        (true, None) => common::count_from(rows, cols, true, 0, u64::MAX) * (rows * cols) as u64,
        _ => common::count_tours(rows, cols, closed, start),
    }
}

/// Each cube's tours by number, a cube given as many as another taking
/// that one's count (which must be among `tallies`, counted itself).
fn resolved(tallies: &[CubeTally]) -> HashMap<usize, u64> {
    let counted: HashMap<usize, u64> = tallies
        .iter()
        .filter_map(|tally| match tally.tours {
            CubeTours::Counted(tours) => Some((tally.number, tours)),
            CubeTours::SameAs(_) => None,
        })
        .collect();
    tallies
        .iter()
        .map(|tally| {
            let tours = match tally.tours {
                CubeTours::Counted(tours) => tours,
                CubeTours::SameAs(other) => counted[&other],
            };
            (tally.number, tours)
        })
        .collect()
}

fn cubes_of(problem: &Problem, depth: usize) -> usize {
    let config = EncodingConfig::default().keeping_every_tour();
    cube_count(problem, &config, depth, usize::MAX).unwrap()
}

/// Checks every cube of every depth against the oracle's tours of `shape`:
/// a cube counts the oracle's tours that begin with its squares (each
/// closed tour searched from a1 standing for its N rotations), the cubes'
/// prefixes are distinct, and the counts add up to the oracle's.
fn check(shape: &Shape, closed: bool, start: Option<usize>, depths: &[usize]) -> Vec<String> {
    // A closed tour turns into one from a1 by rotation, so the oracle lists
    // those from a1 only, each standing for its N rotations (from every
    // square, 5x6 alone takes a minute).
    let rooted_at_a1 = closed && start.is_none();
    let demands = Demands {
        closed,
        clues: start
            .or(rooted_at_a1.then_some(0))
            .map(|s| (0, s))
            .into_iter()
            .collect(),
    };
    let tours = common::tours_of(shape, &demands, usize::MAX);
    let problem = problem_of(shape, closed, start);
    let n = shape.squares();
    let weight = if rooted_at_a1 { n as u64 } else { 1 };
    let names: Vec<String> = (0..n).map(|s| problem.board().name(s)).collect();
    let mut failures = Vec::new();
    for &depth in depths {
        let depth = effective_depth(depth, n);
        let mut by_prefix: HashMap<Vec<String>, u64> = HashMap::new();
        for tour in &tours {
            let prefix = tour[..=depth].iter().map(|&s| names[s].clone()).collect();
            *by_prefix.entry(prefix).or_default() += weight;
        }
        let all = cubes_of(&problem, depth);
        let counted = if all == 0 {
            Vec::new()
        } else {
            tallies(
                &problem,
                depth,
                &[CubeRange {
                    first: 1,
                    last: all,
                }],
                1,
            )
        };
        let mut total = 0;
        let resolved = resolved(&counted);
        for tally in &counted {
            let expected = by_prefix.remove(&tally.squares).unwrap_or(0);
            // A cube given another's count (a symmetric image) has it.
            let tours = resolved[&tally.number];
            if tours != expected {
                failures.push(format!(
                    "{shape:?} closed={closed} start={start:?} depth {depth}: cube {} ({}) has {tours} tours ({:?}), the oracle {expected}",
                    tally.number, tally.squares.join(" "), tally.tours
                ));
            }
            total += tours;
        }
        // Tours outside every cube (or prefixes counted twice) are left over.
        if let Some((prefix, tours)) = by_prefix.iter().find(|(_, &tours)| tours > 0) {
            failures.push(format!(
                "{shape:?} closed={closed} start={start:?} depth {depth}: {tours} tours begin with {} and no cube counts them",
                prefix.join(" ")
            ));
        }
        if total != tours.len() as u64 * weight {
            failures.push(format!(
                "{shape:?} closed={closed} start={start:?} depth {depth}: cubes add up to {total}, the oracle {}",
                tours.len() as u64 * weight
            ));
        }
        // The whole count counts one cube per class of symmetric cubes.
        let options = Split {
            jobs: 1,
            depth: Some(depth),
            limit: None,
        };
        let whole = count_split(
            &problem,
            Method::Backtrack,
            &Request::default(),
            options,
            |_| (),
        )
        .unwrap();
        if whole != tours.len() as u64 * weight {
            failures.push(format!(
                "{shape:?} closed={closed} start={start:?} depth {depth}: the count by classes of cubes is {whole}, the oracle's {}",
                tours.len() as u64 * weight
            ));
        }
    }
    failures
}

#[test]
fn cube_counts_are_the_oracles_on_every_board_of_at_most_30_squares() {
    let mut failures = Vec::new();
    for (rows, cols) in common::small_boards(30) {
        let shape = Shape::knight(rows, cols);
        for closed in [false, true] {
            for start in [None, Some(0)] {
                // The oracle lists 5x6's open tours from every square in
                // about a minute: they are checked from a corner.
                if (rows, cols, closed, start) == (5, 6, false, None) {
                    continue;
                }
                failures.extend(check(&shape, closed, start, &[1, 3, 6]));
            }
        }
    }
    common::assert_none(&failures);
}

#[test]
fn cube_counts_are_the_oracles_with_holes_and_leapers() {
    let shapes = [
        Shape {
            holes: vec![12],
            ..Shape::knight(5, 5)
        },
        Shape {
            holes: vec![0, 7],
            ..Shape::knight(4, 5)
        },
        // Holes that keep some or all of the board's symmetries.
        Shape {
            holes: vec![0, 24],
            ..Shape::knight(5, 5)
        },
        Shape {
            holes: vec![6, 8, 16, 18],
            ..Shape::knight(5, 5)
        },
        Shape {
            leaper: (1, 4),
            ..Shape::knight(5, 5)
        },
        Shape {
            leaper: (2, 3),
            ..Shape::knight(5, 6)
        },
        Shape {
            leaper: (0, 1),
            ..Shape::knight(3, 4)
        },
    ];
    let mut failures = Vec::new();
    for shape in &shapes {
        for closed in [false, true] {
            for start in [None, Some(1)] {
                failures.extend(check(shape, closed, start, &[1, 2, 5]));
            }
        }
    }
    common::assert_none(&failures);
}

#[test]
fn two_threads_count_what_one_does_and_the_oracle_does() {
    for (rows, cols, closed, start) in [
        (5, 5, false, None),
        (5, 5, false, Some(0)),
        (5, 6, true, None),
        (3, 8, false, None),
        (4, 5, false, Some(1)),
    ] {
        let problem = common::adapters::plain_problem(rows, cols, closed, start);
        let expected = oracle_count(rows, cols, closed, start);
        for depth in [None, Some(2), Some(5)] {
            let count = |jobs| {
                let options = Split {
                    jobs,
                    depth,
                    limit: None,
                };
                count_split(
                    &problem,
                    Method::Backtrack,
                    &Request::default(),
                    options,
                    |_| (),
                )
                .unwrap()
            };
            let (one, two) = (count(1), count(2));
            assert_eq!(one, expected, "{rows}x{cols} {closed} {start:?} {depth:?}");
            assert_eq!(two, one, "{rows}x{cols} {closed} {start:?} {depth:?}");
        }
    }
}

#[test]
fn the_cli_counts_the_same_with_one_and_two_jobs() {
    for args in [
        &["count", "--size", "5"][..],
        &["count", "--board", "5x6", "--closed"],
        &["count", "--board", "4x5", "--holes", "b2", "--depth", "4"],
    ] {
        let one = common::cli::stdout_of(&[args, &["--method", "backtrack"]].concat());
        let two =
            common::cli::stdout_of(&[args, &["--method", "backtrack", "--jobs", "2"]].concat());
        let sat = common::cli::stdout_of(&[args, &["--method", "sat"]].concat());
        let default = common::cli::stdout_of(&[args, &["--jobs", "2"]].concat());
        assert_eq!(one, sat, "{args:?}");
        assert_eq!(default, one, "{args:?}");
        assert_eq!(two, one, "{args:?}");
    }
}

/// Random partitions of 1..=cubes into ranges.
fn partition(cubes: usize, random: &mut Sequence) -> Vec<CubeRange> {
    let mut ranges = Vec::new();
    let mut first = 1;
    while first <= cubes {
        let last = (first + random.below(cubes / 3 + 1)).min(cubes);
        ranges.push(CubeRange { first, last });
        first = last + 1;
    }
    ranges
}

/// The sum of `tallies` under the header of `problem`'s task, as `sum`
/// adds up a task's output.
fn sum(
    problem: &Problem,
    depth: usize,
    tallies: &[CubeTally],
) -> Result<knightsat::count::TourNumber, TallyError> {
    // The header of the task, as a count of its first cube prints it.
    let first = CubeRange { first: 1, last: 1 };
    let (header, _) = count_range(
        problem,
        Method::Backtrack,
        &Request::default(),
        (depth, first),
        1,
    )
    .unwrap();
    let mut sum = CubeSum::new();
    sum.add("line 0", &format!("{header}\n"))?;
    for (line, tally) in tallies.iter().enumerate() {
        sum.add(&format!("line {}", line + 1), &format!("{tally}\n"))?;
    }
    match sum_tallies(&sum, None) {
        Err(knightsat::error::Error::Tally(error)) => Err(error),
        other => Ok(other.unwrap()),
    }
}

#[test]
fn any_partition_of_the_cubes_sums_to_the_whole_and_gaps_or_repeats_are_refused() {
    let mut random = Sequence(22);
    for (rows, cols, closed, start, depth) in [
        (5, 5, false, None, 3),
        (5, 5, false, Some(0), 4),
        (5, 6, true, None, 5),
        (4, 5, false, None, 2),
    ] {
        let problem = common::adapters::plain_problem(rows, cols, closed, start);
        let expected = oracle_count(rows, cols, closed, start);
        let cubes = cubes_of(&problem, depth);
        for _ in 0..3 {
            let ranges = partition(cubes, &mut random);
            let jobs = 1 + random.below(2);
            let counted = tallies(&problem, depth, &ranges, jobs);
            assert_eq!(counted.len(), cubes);
            assert_eq!(
                sum(&problem, depth, &counted),
                Ok(knightsat::count::TourNumber::from(expected)),
                "{rows}x{cols} {ranges:?}"
            );
            // One range left out: exactly its cubes are named.
            let dropped = ranges[random.below(ranges.len())];
            let short: Vec<CubeTally> = counted
                .iter()
                .filter(|t| !(dropped.first..=dropped.last).contains(&t.number))
                .cloned()
                .collect();
            let missing: Vec<usize> = (dropped.first..=dropped.last).collect();
            assert_eq!(
                sum(&problem, depth, &short),
                Err(TallyError::Missing {
                    kind: LineKind::Cube,
                    cubes,
                    missing
                }),
                "{ranges:?}"
            );
            // One cube counted again, in any order.
            let mut again = counted.clone();
            let repeated = counted[random.below(counted.len())].clone();
            again.insert(random.below(again.len()), repeated.clone());
            assert!(
                matches!(sum(&problem, depth, &again), Err(TallyError::CountedTwice { number, .. }) if number == repeated.number),
                "{:?}",
                sum(&problem, depth, &again)
            );
        }
    }
}

#[test]
fn a_sample_of_every_cube_is_the_exact_count() {
    let problem = common::adapters::plain_problem(5, 5, false, None);
    let options = Split {
        jobs: 2,
        depth: Some(3),
        limit: None,
    };
    let estimate = estimate(
        &problem,
        Method::Backtrack,
        &Request::default(),
        options,
        (usize::MAX, 1),
        None,
    )
    .unwrap();
    let expected = common::count_tours(5, 5, false, None) as f64;
    assert!((estimate.tours - expected).abs() < 1e-6, "{estimate:?}");
    assert_eq!(estimate.margin, Some(0.0));
    assert_eq!(estimate.sampled, cubes_of(&problem, 3));
}

#[test]
fn the_split_manifest_numbers_the_cubes_that_backtracking_counts() {
    let dir = tempfile::tempdir().unwrap();
    let split = dir.path().join("split");
    let board = ["--size", "5", "--start", "c3", "--depth", "3"];
    common::cli::knightsat()
        .args(["cubes", "--split", split.to_str().unwrap()])
        .args(board)
        .assert()
        .success();
    let manifest = std::fs::read_to_string(split.join("manifest.tsv")).unwrap();
    let files: Vec<(&str, &str)> = manifest
        .lines()
        .skip(1)
        .map(|line| line.split_once('\t').unwrap())
        .collect();
    let how_many = common::cli::stdout_of(&[&["cubes", "--count"][..], &board].concat());
    assert_eq!(how_many.trim(), files.len().to_string());
    let lines = common::cli::stdout_of(
        &[
            &["count", "--method", "backtrack", "--jobs", "2", "--cubes"][..],
            &[&format!("1-{}", files.len() + 50)],
            &board,
        ]
        .concat(),
    );
    let mut lines: Vec<Vec<&str>> = lines
        .lines()
        .filter(|line| !line.starts_with("# knightsat cube counts "))
        .map(|l| l.split('\t').collect())
        .collect();
    lines.sort_by_key(|fields| {
        fields[0][5..]
            .split('/')
            .next()
            .unwrap()
            .parse::<usize>()
            .unwrap()
    });
    assert_eq!(lines.len(), files.len());
    let mut given_another_count = 0;
    for (number, ((file, squares), fields)) in files.iter().zip(&lines).enumerate() {
        assert_eq!(fields[0], format!("cube {}/{}", number + 1, files.len()));
        assert_eq!(fields[2], *squares, "{file}");
        // SAT on the split file counts what backtracking counts in the cube,
        // or in the lower-numbered cube it gives as its symmetric image.
        let tours = match fields[1].strip_prefix('=') {
            Some(other) => {
                given_another_count += 1;
                let other: usize = other.parse().unwrap();
                assert!(other < number + 1, "{fields:?}");
                lines[other - 1][1]
            }
            None => fields[1],
        };
        let sat = common::cli::stdout_of(&["count", "--cnf", split.join(file).to_str().unwrap()]);
        assert_eq!(sat.trim(), tours, "{file}");
    }
    // From the centre of 5x5, the board's 8 symmetries keep the start.
    assert!(
        given_another_count >= files.len() / 2,
        "{given_another_count}"
    );
}

#[test]
fn sum_adds_up_task_outputs_and_refuses_gaps_repeats_and_strangers_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let board = ["--size", "5", "--method", "backtrack", "--depth", "3"];
    let cubes: usize = common::cli::stdout_of(&["cubes", "--size", "5", "--depth", "3", "--count"])
        .trim()
        .parse()
        .unwrap();
    let mut files = Vec::new();
    for (task, range) in ["1-100", "101-300", &format!("301-{}", cubes + 99)]
        .iter()
        .enumerate()
    {
        let out = common::cli::stdout_of(&[&["count", "--cubes", range][..], &board].concat());
        let path = dir.path().join(format!("{task}.count"));
        std::fs::write(&path, out).unwrap();
        files.push(path.to_str().unwrap().to_string());
    }
    let total = common::cli::stdout_of(
        &[
            &["sum"][..],
            &files.iter().map(String::as_str).collect::<Vec<_>>(),
        ]
        .concat(),
    );
    assert_eq!(
        total.trim(),
        common::count_tours(5, 5, false, None).to_string()
    );
    let refused = |args: &[&str], words: &str| {
        let output = common::cli::knightsat().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty());
    };
    refused(
        &["sum", &files[0], &files[2]],
        &format!("200 of {cubes} cubes are not counted (cube 101-300)"),
    );
    // A task's output twice: as a copy, its cubes are counted twice; as
    // the same file named twice, the file is.
    let copy = dir.path().join("copy.count");
    std::fs::copy(&files[1], &copy).unwrap();
    // The copy's first cube is the first seen again; with a thread per
    // core the cubes are written as they finish, so read which it is.
    let first_cube = std::fs::read_to_string(&copy)
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .split(['\t', '/'])
        .next()
        .unwrap()
        .to_string();
    refused(
        &[
            "sum",
            &files[0],
            &files[1],
            &files[2],
            copy.to_str().unwrap(),
        ],
        &format!("{first_cube} of {cubes} is counted twice"),
    );
    refused(
        &["sum", &files[0], &files[1], &files[2], &files[1]],
        "is named twice",
    );
    let stranger = dir.path().join("stranger");
    std::fs::write(&stranger, "1728\n").unwrap();
    refused(
        &["sum", &files[0], stranger.to_str().unwrap()],
        "is not a cube's count",
    );
    refused(
        &[
            "count",
            "--size",
            "5",
            "--depth",
            "3",
            "--cubes",
            &format!("{}-{}", cubes + 1, cubes + 5),
        ],
        "does not exist",
    );
    refused(&["count", "--size", "5", "--cubes", "1-5"], "--depth");
    refused(
        &["count", "--size", "5", "--depth", "3", "--cubes", "5-1"],
        "not a range",
    );
}

/// A task whose problem has no cube at its depth (the gate refutes it, or
/// the walk finds no prefix) prints its header alone, whatever route
/// answers, and `sum` reads the tasks' outputs as the oracle's count: none.
/// A header alone of a problem with cubes is a task that counted nothing.
#[test]
fn a_task_of_a_problem_without_cubes_prints_its_header_and_sums_to_none() {
    let dir = tempfile::tempdir().unwrap();
    let problems: [(&[&str], Shape, Demands); 2] = [
        (
            &["--board", "4x5", "--closed", "--start", "d3", "--end", "c3"],
            Shape::knight(4, 5),
            Demands {
                closed: true,
                clues: vec![(0, 13), (19, 12)],
            },
        ),
        (
            &["--board", "2x6", "--leaper", "1,4"],
            Shape {
                leaper: (1, 4),
                ..Shape::knight(2, 6)
            },
            Demands::default(),
        ),
    ];
    for (problem, shape, demands) in problems {
        let mut files = Vec::new();
        for range in ["1-3", "4-9"] {
            let args = [
                &["count", "--depth", "3", "--jobs", "1", "--cubes", range],
                problem,
            ]
            .concat();
            let out = common::cli::stdout_of(&args);
            let lines: Vec<&str> = out.lines().collect();
            assert_eq!(lines.len(), 1, "{args:?}: {out}");
            assert!(lines[0].starts_with("# knightsat cube counts "), "{out}");
            let path = dir.path().join(format!("{}-{range}", files.len()));
            std::fs::write(&path, &out).unwrap();
            files.push(path.to_str().unwrap().to_string());
        }
        let total = common::cli::stdout_of(&["sum", &files[0], &files[1]]);
        let oracle = common::tours_of(&shape, &demands, usize::MAX).len();
        assert_eq!(total.trim(), oracle.to_string(), "{problem:?}");
    }
    let header = common::cli::stdout_of(&["count", "--size", "5", "--depth", "3", "--cubes", "1"]);
    let alone = dir.path().join("alone");
    std::fs::write(&alone, header.lines().next().unwrap().to_string() + "\n").unwrap();
    let output = common::cli::knightsat()
        .args(["sum", alone.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cubes are not counted (cube 1-"),
        "{stderr}"
    );
}

/// The tours `count` reported before its time limit, from "ran out after N
/// tours" on stderr.
fn tours_before_the_limit(stderr: &str) -> u64 {
    let after = stderr
        .split("ran out after ")
        .nth(1)
        .unwrap_or_else(|| panic!("no count so far in: {stderr}"));
    after.split(' ').next().unwrap().parse().unwrap()
}

/// A depth of every move but the last makes the walk that builds the cubes
/// a search for every tour of the board, before any solver starts, and one
/// that prunes only dead ends: on 5x6 (37,568 open tours) it tries walks
/// for minutes. That walk keeps `--timeout` too (it once ran on for as
/// long as it took).
#[test]
fn the_walk_that_makes_deep_cubes_keeps_the_time_limit() {
    use std::io::Read;
    use wait_timeout::ChildExt;
    for command in [
        &["solve", "--jobs", "2"][..],
        &["count", "--method", "sat", "--jobs", "2"],
        &["count", "--method", "backtrack", "--jobs", "2"],
        &["count", "--method", "sat", "--cubes", "1-3"],
        &["count", "--method", "backtrack", "--cubes", "1-3"],
        &["count", "--method", "sat", "--sample", "3"],
    ] {
        let args = [
            command,
            &["--board", "5x6", "--depth", "29", "--timeout", "0.5"],
        ]
        .concat();
        let mut child = std::process::Command::new(common::cli::binary())
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Generous for a loaded machine; the walk alone takes minutes.
        let Some(status) = child
            .wait_timeout(std::time::Duration::from_secs(30))
            .unwrap()
        else {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{args:?}: still running after 30 s, past its 0.5 s limit");
        };
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        assert_eq!(status.code(), Some(124), "{args:?}: {stderr}");
        assert!(
            stderr.contains("within 0.5 s"),
            "{args:?}: the whole limit is named: {stderr}"
        );
    }
}

#[test]
fn a_count_by_cubes_stops_at_its_timeout_with_a_lower_bound_and_whole_cube_lines() {
    // 6x6 open has 6,637,920 tours (OEIS A165134): several seconds of
    // counting, so a 0.3 s limit stops every route below partway.
    let whole = 6_637_920;
    for route in [
        &["--method", "backtrack"][..],
        &["--method", "backtrack", "--jobs", "2"],
        &["--method", "backtrack", "--depth", "7"],
        &["--method", "sat", "--jobs", "2", "--depth", "3"],
    ] {
        let args = [&["count", "--size", "6", "--timeout", "0.3"][..], route].concat();
        let output = common::cli::knightsat().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(124), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(stderr.contains("at least"), "{args:?}: {stderr}");
        assert!(
            tours_before_the_limit(&stderr) < whole,
            "{args:?}: {stderr}"
        );
    }
    // A cluster task cut short prints whole cubes only, each as a task
    // without a limit counts it; the sum names the rest. The limit is a
    // quarter of what the whole task takes in a debug build (about 2 s
    // since one cube per class is counted): a 2 s limit let it finish.
    let task = [
        "count", "--size", "6", "--depth", "6", "--cubes", "1-120000",
    ];
    let output = common::cli::knightsat()
        .args(task)
        .args(["--timeout", "0.5"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(124), "{stderr}");
    assert!(
        stderr.contains("each line printed is a whole cube"),
        "{stderr}"
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    let (header, lines) = stdout.split_once('\n').unwrap();
    assert!(header.starts_with("# knightsat cube counts "), "{header}");
    let lines: Vec<&str> = lines.lines().collect();
    assert!(!lines.is_empty(), "{stderr}");
    for line in lines
        .iter()
        .step_by(lines.len().div_ceil(5))
        .chain(lines.last())
    {
        let number = line.split(['/', ' ']).nth(1).unwrap();
        let alone =
            common::cli::stdout_of(&["count", "--size", "6", "--depth", "6", "--cubes", number]);
        assert_eq!(alone, format!("{header}\n{line}\n"));
    }
    let dir = tempfile::tempdir().unwrap();
    let part = dir.path().join("part");
    std::fs::write(&part, &stdout).unwrap();
    let sum = common::cli::knightsat()
        .args(["sum", part.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(sum.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&sum.stderr).contains("are not counted"));
}

/// The estimate's count as printed, from the first line `count --sample`
/// prints.
fn estimated(stdout: &str) -> &str {
    let line = stdout.lines().next().unwrap();
    let number = line.strip_prefix("estimate: ").unwrap().split(' ').next();
    number.unwrap()
}

#[test]
fn a_range_of_cubes_sums_and_samples_on_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let board = ["--size", "5", "--depth", "3"];
    let task = |range: &str, method: &str| {
        let args = [&["count", "--cubes", range, "--method", method][..], &board].concat();
        let out = common::cli::stdout_of(&args);
        let path = dir.path().join(format!("{range}.{method}"));
        std::fs::write(&path, &out).unwrap();
        (out, path.to_str().unwrap().to_string())
    };
    // SAT counts every cube of the range itself.
    let (by_sat, sat_file) = task("101-300", "sat");
    let tours: u64 = by_sat
        .lines()
        .skip(1)
        .map(|line| line.split('\t').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    let sum = |files: &[&str]| {
        let args = [&["sum", "--cubes", "101-300"][..], files].concat();
        common::cli::knightsat().args(args).output().unwrap()
    };
    let summed = sum(&[&sat_file]);
    assert_eq!(
        String::from_utf8_lossy(&summed.stdout).trim(),
        tours.to_string()
    );
    // Backtracking gives most cubes the count of a lower-numbered image,
    // here before the range: its sum needs the task that counted those.
    let (by_backtracking, range_file) = task("101-300", "backtrack");
    assert!(by_backtracking.contains("\t="), "{by_backtracking}");
    let alone = sum(&[&range_file]);
    let stderr = String::from_utf8_lossy(&alone.stderr);
    assert_eq!(alone.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("which no line counts"), "{stderr}");
    let (_, first_file) = task("1-100", "backtrack");
    let both = sum(&[&first_file, &range_file]);
    let stderr = String::from_utf8_lossy(&both.stderr);
    assert_eq!(
        String::from_utf8_lossy(&both.stdout).trim(),
        tours.to_string(),
        "{stderr}"
    );
    let output = common::cli::knightsat()
        .args(["sum", "--cubes", "100-300", &sat_file])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("(cube 100)"), "{stderr}");
    // A sample of every cube of the range is its count, with no margin.
    let whole = common::cli::stdout_of(
        &[
            &["count", "--cubes", "101-300", "--sample", "200"][..],
            &board,
        ]
        .concat(),
    );
    assert_eq!(estimated(&whole), tours.to_string(), "{whole}");
    assert!(whole.contains("± 0 tours"), "{whole}");
    assert!(
        whole.contains("200 of the 200 cubes numbered 101-300"),
        "{whole}"
    );
    // Over every cube, the same seed draws the same sample as without a
    // range.
    let all = common::cli::stdout_of(
        &[
            &["count", "--cubes", "1-100000", "--sample", "40"][..],
            &board,
        ]
        .concat(),
    );
    let plain = common::cli::stdout_of(&[&["count", "--sample", "40"][..], &board].concat());
    assert_eq!(estimated(&all), estimated(&plain));
}
