//! The frontier counter counts what every other method counts: the
//! brute-force oracle's numbers on every small board, open and closed, from
//! any start or a corner, between two ends, with holes and with other
//! leapers; and backtracking's numbers on the larger boards the oracle is too
//! slow for.

use crate::common;

use common::{Demands, Shape};
use knightsat::count::frontier::SquareOrder;
use knightsat::count::{CountJob, CountOptions};
use knightsat::model::problem::Problem;
use knightsat::solve::Method;

fn frontier(problem: &Problem, jobs: usize) -> u128 {
    frontier_in(problem, jobs, SquareOrder::Rows)
}

/// [`frontier`], taking the squares in `order`.
fn frontier_in(problem: &Problem, jobs: usize, order: SquareOrder) -> u128 {
    let mut job = CountJob {
        method: Method::Frontier,
        options: CountOptions {
            jobs: Some(jobs),
            frontier_order: order,
            ..CountOptions::default()
        },
        ..CountJob::new(problem)
    };
    job.run().unwrap().tours().unwrap().to_u128().unwrap()
}

#[test]
fn counts_match_the_oracle_on_every_board_of_at_most_30_squares() {
    let mut failures = Vec::new();
    for (rows, cols) in common::small_boards(30) {
        for closed in [false, true] {
            for start in [None, Some(0)] {
                let expected = u128::from(common::count_tours(rows, cols, closed, start));
                let problem = common::adapters::plain_problem(rows, cols, closed, start);
                // Two threads on every other board: the shards must add up
                // the same; and the other order of the squares.
                let jobs = 1 + (rows + cols) % 2;
                for order in [
                    SquareOrder::Rows,
                    SquareOrder::Snake,
                    SquareOrder::Meet,
                    SquareOrder::Diagonal,
                ] {
                    let got = frontier_in(&problem, jobs, order);
                    if got != expected {
                        failures.push(format!(
                            "{rows}x{cols} closed={closed} start={start:?} {order:?}: frontier {got}, oracle {expected}"
                        ));
                    }
                }
            }
        }
    }
    common::assert_none(&failures);
}

/// A few hole sets for a board: none, a corner, a corner and a middle
/// square, and two squares of one colour.
fn hole_sets(rows: usize, cols: usize) -> Vec<Vec<usize>> {
    let cells = rows * cols;
    let mut sets = vec![Vec::new(), vec![0]];
    if cells > 4 {
        sets.push(vec![cells - 1, cells / 2]);
        sets.push(vec![1, cols + 2]);
    }
    sets.retain(|set| set.iter().all(|&cell| cell < cells));
    sets
}

#[test]
fn counts_match_the_oracle_with_holes_leapers_and_both_ends() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for leaper in [(1, 2), (1, 3), (2, 3)] {
        for (rows, cols) in common::small_boards(20).into_iter().filter(|&(r, _)| r > 1) {
            for holes in hole_sets(rows, cols) {
                let shape = Shape {
                    rows,
                    cols,
                    holes,
                    leaper,
                };
                let n = shape.squares();
                if n < 2 {
                    continue;
                }
                // No end, a start, a start and the last square as the end.
                let ends = [vec![], vec![(0, 0)], vec![(0, 0), (n - 1, n - 1)]];
                for closed in [false, true] {
                    for clues in &ends {
                        let demands = Demands {
                            closed,
                            clues: clues.clone(),
                        };
                        let expected = common::tours_of(&shape, &demands, usize::MAX).len() as u128;
                        let problem = common::adapters::problem_of(&shape, &demands, true);
                        // The forward orders in turn, and meeting in the
                        // middle on every count (with a fixed end or two,
                        // each half knows them and the join matches their
                        // one edge on either side).
                        let forward =
                            [SquareOrder::Rows, SquareOrder::Snake, SquareOrder::Diagonal];
                        for order in [forward[checked % 3], SquareOrder::Meet] {
                            let got = frontier_in(&problem, 1, order);
                            checked += 1;
                            if got != expected {
                                failures.push(format!(
                                    "{shape:?} {demands:?} {order:?}: frontier {got}, oracle {expected}"
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
    common::assert_none(&failures);
}

#[test]
fn counts_match_backtracking_beyond_the_oracle() {
    for args in [
        &["--board", "6x6", "--closed", "--start", "a1"][..],
        &["--board", "5x6", "--start", "a1", "--end", "f5"],
        &["--board", "4x9", "--holes", "i4", "--start", "a1"],
        &["--board", "4x8", "--holes", "h4,a4"],
    ] {
        let by = |method: &str| {
            let mut all = vec!["count", "--method", method];
            all.extend(args);
            common::cli::stdout_of(&all)
        };
        let backtracking = by("backtrack");
        assert!(backtracking.trim().parse::<u64>().unwrap() > 0, "{args:?}");
        assert_eq!(by("frontier"), backtracking, "{args:?}");
    }
}

#[test]
fn clues_tours_and_orbits_are_refused_in_one_line() {
    for (args, says) in [
        (
            &[
                "count", "--size", "5", "--method", "frontier", "--at", "2=c2",
            ][..],
            "does not take clues",
        ),
        (
            &["solve", "--size", "5", "--method", "frontier"][..],
            "counts tours without finding one",
        ),
        (
            &[
                "count",
                "--size",
                "5",
                "--method",
                "frontier",
                "--up-to-symmetry",
            ][..],
            "never does",
        ),
        (
            &[
                "count", "--size", "5", "--method", "frontier", "--limit", "3",
            ][..],
            "the whole board at once",
        ),
    ] {
        let output = common::cli::knightsat().args(args).output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

/// The terms of a sequence in `fixtures/oeis/NAME.txt`: (rows, cols, term)
/// per line `RxC<TAB>term`, `#` lines being its source and definition
/// (terms past 128 bits stay text).
fn terms(name: &str) -> Vec<(usize, usize, String)> {
    fixture_lines(name)
        .into_iter()
        .map(|(board, term)| {
            let (rows, cols) = board.split_once('x').unwrap();
            (rows.parse().unwrap(), cols.parse().unwrap(), term)
        })
        .collect()
}

/// The published counts of closed tours (undirected cycles C: knightsat
/// counts 2C from a1) on 6 x n, 8 x n and 7 x 2n boards, and of directed
/// open tours on n x n, on the boards of at most 40 squares; the larger
/// terms are benchmarks (`scripts/bench-count.sh`).
#[test]
fn counts_reproduce_the_published_sequences_on_small_boards() {
    let mut checked = 0;
    for (name, closed) in [
        ("A175881", true),
        ("A193055", true),
        ("A193054", true),
        ("A001230", true),
        ("A165134", false),
    ] {
        for (rows, cols, term) in terms(name) {
            if rows * cols > 40 {
                continue;
            }
            let start = closed.then_some(0);
            let problem = common::adapters::plain_problem(rows, cols, closed, start);
            let term: u128 = term.parse().unwrap();
            let expected = if closed { 2 * term } else { term };
            assert_eq!(frontier(&problem, 2), expected, "{name} {rows}x{cols}");
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked}");
}

/// The lines of `fixtures/oeis/NAME.txt` that are not `#` lines, split at
/// the tab: the board (or number of cells) and the term.
fn fixture_lines(name: &str) -> Vec<(String, String)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/oeis")
        .join(format!("{name}.txt"));
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let (key, term) = line.split_once('\t').unwrap();
            (key.to_string(), term.trim().to_string())
        })
        .collect()
}

/// The published counts of Hamiltonian paths (open tours) on k x n
/// boards that no one here computed: 6 x n, 7 x n and 8 x n (A306281,
/// A306283, A389760: undirected, knightsat counts 2P), the triangle of
/// directed counts (A306282), and Luschny's arrays of paths and cycles
/// (A390833, A392000: knightsat counts 2C from a1), on every board of at
/// most 40 squares.
#[test]
fn counts_of_paths_reproduce_the_published_sequences() {
    let mut checked = 0;
    for (name, closed, undirected) in [
        ("A306281", false, true),
        ("A306283", false, true),
        ("A389760", false, true),
        ("A306282", false, false),
        ("A390833", false, true),
        ("A392000", true, true),
    ] {
        for (rows, cols, term) in terms(name) {
            // Luschny's program counts a path when its first square is
            // below its last: none on one square, where knightsat counts
            // the one-square tour.
            if rows * cols > 40 || (name == "A390833" && rows * cols == 1) {
                continue;
            }
            let problem = common::adapters::plain_problem(rows, cols, closed, closed.then_some(0));
            let term: u128 = term.parse().unwrap();
            let expected = if undirected { 2 * term } else { term };
            assert_eq!(frontier(&problem, 2), expected, "{name} {rows}x{cols}");
            checked += 1;
        }
    }
    assert!(checked >= 150, "{checked}");
}

/// Knuth's counts of Hamiltonian paths on the first n cells of a k-row
/// board taken file by file (A389755 to A389758, k = 5 to 8): boards whose
/// last file is cut short, so that the terms check the counter after every
/// cell, on every board of at most 36 cells (past that a term takes seconds),
/// taking the orders of the squares in turn.
#[test]
fn counts_of_paths_on_the_first_cells_of_a_board_reproduce_knuths_sequences() {
    let mut checked = 0;
    for (name, rows) in [
        ("A389755", 5),
        ("A389756", 6),
        ("A389757", 7),
        ("A389758", 8),
    ] {
        for (cells, term) in fixture_lines(name) {
            let cells: usize = cells.parse().unwrap();
            if cells > 36 {
                continue;
            }
            let cols = cells.div_ceil(rows);
            // The last file keeps its first `cells mod rows` ranks.
            let kept = cells - (cols - 1) * rows;
            let holes: Vec<usize> = (kept..rows).map(|rank| rank * cols + cols - 1).collect();
            let shape = Shape {
                rows,
                cols,
                holes,
                leaper: (1, 2),
            };
            assert_eq!(shape.squares(), cells);
            let problem = Problem::new(shape.board());
            let paths: u128 = term.parse().unwrap();
            let expected = if cells == 1 { 1 } else { 2 * paths };
            let order = [SquareOrder::Rows, SquareOrder::Snake, SquareOrder::Auto][checked % 3];
            assert_eq!(
                frontier_in(&problem, 2, order),
                expected,
                "{name} {cells} cells ({rows}x{cols}) {order:?}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 130, "{checked}");
}

/// With -v the frontier counter says its peak (the issue's "live states
/// at the peak"): the most live states at one step, which step of how
/// many that was, and the most its tables took; in each order of the
/// squares, the counts the same.
#[test]
fn verbose_counts_say_the_frontiers_peak() {
    let mut counts = Vec::new();
    for order in ["rows", "snake", "meet"] {
        let output = common::cli::knightsat()
            .args(["count", "--board", "5x6", "--method", "frontier", "-v"])
            .args(["--frontier-order", order])
            .output()
            .unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(output.status.success(), "{order}: {stderr}");
        let line = stderr
            .lines()
            .find_map(|line| line.strip_prefix("frontier: at most "))
            .unwrap_or_else(|| panic!("{order}: no peak in {stderr}"));
        let numbers: Vec<u64> = line
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|word| word.parse().ok())
            .collect();
        let [states, step, steps, mib] = numbers[..] else {
            panic!("{order}: {line}");
        };
        assert!(states >= 1 && mib >= 1, "{order}: {line}");
        assert!(1 <= step && step <= steps, "{order}: {line}");
        counts.push(String::from_utf8(output.stdout).unwrap());
    }
    assert!(counts.iter().all(|count| *count == counts[0]), "{counts:?}");
}

/// An open count with no fixed end on a board whose halves turn into each
/// other runs as two counts by where its ends lie, and -v's peak names the
/// one it was in; a closed count runs as one and names none.
#[test]
fn verbose_peaks_name_the_count_by_where_the_ends_lie() {
    let peak = |args: &[&str]| {
        let output = common::cli::knightsat()
            .args(["count", "--board", "6x6", "--method", "frontier", "-v"])
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(output.status.success(), "{args:?}: {stderr}");
        stderr
            .lines()
            .find(|line| line.starts_with("frontier: at most "))
            .unwrap_or_else(|| panic!("{args:?}: no peak in {stderr}"))
            .to_string()
    };
    let open = peak(&[]);
    assert!(
        open.contains("(both ends in one half);") || open.contains("(an end in each half);"),
        "{open}"
    );
    let closed = peak(&["--closed"]);
    assert!(!closed.contains('('), "{closed}");
}

/// A forward count of 7x8 closed within 16 MiB: its tables pass the
/// budget within a second and keep spilling to `dir` for long after.
fn spilling_count(dir: &std::path::Path) -> Vec<String> {
    let mut args = common::cli::frontier_closed("7x8", "rows", 16, dir);
    args.push("-v".into());
    args
}

/// Whether a count has written a file of states in `dir` (in its own
/// directory there).
fn has_spilled(dir: &std::path::Path) -> bool {
    std::fs::read_dir(dir).unwrap().any(|own| {
        let own = own.unwrap().path();
        own.is_dir() && std::fs::read_dir(&own).is_ok_and(|mut files| files.next().is_some())
    })
}

/// A spilling count ([`spilling_count`]) started in the background, once
/// it has written a file of states in `dir` (within a minute).
fn spilling_in(dir: &std::path::Path) -> std::process::Child {
    use std::time::{Duration, Instant};
    let child = std::process::Command::new(common::cli::binary())
        .args(spilling_count(dir))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !has_spilled(dir) && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(has_spilled(dir), "no file of states after a minute");
    child
}

/// SIGTERM or SIGINT while a count keeps states on disk, and a --timeout
/// that runs out then, leave no file or directory behind.
#[test]
fn a_count_stopped_while_spilling_leaves_no_file() {
    use common::cli::{entries, send};
    let dir = tempfile::tempdir().unwrap();
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let mut child = spilling_in(dir.path());
        send(&child, signal);
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(128 + signal), "{status}");
        assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
    }
    let mut args = spilling_count(dir.path());
    args.extend(["--timeout".to_string(), "5".to_string()]);
    let output = common::cli::knightsat().args(&args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(124), "{stderr}");
    assert!(stderr.contains("the rest go to files in"), "{stderr}");
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
}

/// A disk that fills up (a tmpfs of 2 MiB, mounted in a mount namespace of
/// the test's own) ends the count with one line and exit 2, and the files
/// written so far are removed.
#[test]
fn a_full_disk_ends_a_spilling_count_in_one_line_leaving_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mount = dir.path().to_str().unwrap();
    let count = spilling_count(dir.path())
        .iter()
        .filter(|arg| *arg != "-v")
        .cloned()
        .collect::<Vec<_>>()
        .join(" ");
    let script = format!(
        "mount -t tmpfs -o size=2m tmpfs {mount} || exit 99; {} {count}; echo \"exit $?\" >&2; ls -A {mount} >&2",
        common::cli::binary().display()
    );
    let output = std::process::Command::new("unshare")
        .args(["--mount", "sh", "-c", &script])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(
        lines.len(),
        2,
        "one line of error, the exit status, no file: {stderr}"
    );
    assert!(
        lines[0].contains("could not keep its states in") && lines[0].contains("No space left"),
        "{stderr}"
    );
    assert_eq!(lines[1], "exit 2", "{stderr}");
}

/// Writes part K of N (`part`) of the count of 5x5 without e5, with
/// `extra` arguments, to the file `name` in `dir`; its name.
fn part_without_e5(
    dir: &std::path::Path,
    name: &str,
    (k, of): (usize, usize),
    extra: &[&str],
) -> String {
    let part = format!("{k}/{of}");
    let mut args = vec!["count", "--board", "5x5", "--holes", "e5", "--part", &part];
    args.extend(extra);
    std::fs::write(dir.join(name), common::cli::stdout_of(&args)).unwrap();
    name.to_string()
}

/// `knightsat sum FILES…`, run in `dir`.
fn sum_in(dir: &std::path::Path, files: &[String]) -> std::process::Output {
    common::cli::knightsat()
        .arg("sum")
        .args(files)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Asserts that `knightsat sum FILES…`, run in `dir`, succeeds and prints
/// `expected` (`what` names the case).
fn sums_to(dir: &std::path::Path, files: &[String], expected: usize, what: &str) {
    let output = sum_in(dir, files);
    assert!(output.status.success(), "{what}: {output:?}");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        expected.to_string(),
        "{what}"
    );
}

/// A frontier count in K parts (K = 1, 2, 3, 7; the default order and
/// forward) adds up under `sum` to the oracle's count of a board with a
/// hole; and `sum` refuses a part missing, a part counted twice, and a
/// part of another count (another board, or another number of parts), each
/// in one line with exit 2.
#[test]
fn parts_added_up_by_sum_give_the_oracles_count_and_sum_refuses_a_missing_repeated_or_foreign_part()
{
    let shape = Shape {
        rows: 5,
        cols: 5,
        holes: vec![common::cli::index_of("e5", 5)],
        leaper: (1, 2),
    };
    let demands = Demands {
        closed: false,
        clues: vec![],
    };
    let expected = common::tours_of(&shape, &demands, usize::MAX).len();
    assert!(expected > 1000, "{expected}");
    let dir = tempfile::tempdir().unwrap();
    let part = |order: &str, k: usize, of: usize| -> String {
        let name = format!("{order}-{k}-of-{of}.txt");
        part_without_e5(dir.path(), &name, (k, of), &["--frontier-order", order])
    };
    let mut split = 0;
    for order in ["auto", "rows"] {
        for of in [1, 2, 3, 7] {
            let files: Vec<String> = (1..=of).map(|k| part(order, k, of)).collect();
            let tours: Vec<u64> = files
                .iter()
                .map(|file| {
                    let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
                    let line = text.lines().nth(1).unwrap();
                    line.split('\t').nth(1).unwrap().parse().unwrap()
                })
                .collect();
            split += usize::from(tours.iter().filter(|&&t| t > 0).count() > 1);
            sums_to(
                dir.path(),
                &files,
                expected,
                &format!("{order} in {of} parts: {tours:?}"),
            );
        }
    }
    assert!(split >= 5, "{split}");
    let three: Vec<String> = (1..=3).map(|k| format!("auto-{k}-of-3.txt")).collect();
    std::fs::copy(dir.path().join(&three[1]), dir.path().join("again.txt")).unwrap();
    let foreign =
        common::cli::stdout_of(&["count", "--board", "5x5", "--holes", "a1", "--part", "3/3"]);
    std::fs::write(dir.path().join("foreign.txt"), foreign).unwrap();
    for (files, words) in [
        (
            vec![&three[0], &three[2]],
            "1 of 3 parts are not counted (part 2)",
        ),
        (
            vec![&three[0], &three[1], &three[2], &"again.txt".to_string()],
            "part 2 of 3 is counted twice",
        ),
        (
            vec![&three[0], &three[1], &"foreign.txt".to_string()],
            "from a count of another problem",
        ),
        (
            vec![&three[0], &three[1], &"rows-3-of-3.txt".to_string()],
            "from a count of another problem, depth, method, order or split",
        ),
        (
            vec![&three[0], &three[1], &"auto-3-of-7.txt".to_string()],
            "from a count of another problem",
        ),
    ] {
        let mut args = vec!["sum"];
        args.extend(files.iter().map(|file| file.as_str()));
        common::cli::refused(&args, dir.path(), words);
    }
}

/// A board of one square (1x1, or 3x3 with every square but b2 a hole) has
/// one tour, complete before the states are split: the first part counts
/// it and no other, so that the parts add up under `sum` to the oracle's
/// count, for every leaper, with and without a start, in 2, 3 and 5 parts
/// (each part printed 1 and `sum` said N).
#[test]
fn a_tour_of_one_square_is_counted_by_one_part_alone() {
    let dir = tempfile::tempdir().unwrap();
    let ring: Vec<usize> = (0..9).filter(|&cell| cell != 4).collect();
    let boards = [
        ("1x1", "", "a1", vec![]),
        ("3x3", "a1,b1,c1,a2,c2,a3,b3,c3", "b2", ring),
    ];
    let mut summed = 0;
    for (board, holes, square, hole_cells) in &boards {
        let (rows, cols) = if *board == "1x1" { (1, 1) } else { (3, 3) };
        for (a, b) in [(1, 2), (0, 1), (1, 1)] {
            let shape = Shape {
                rows,
                cols,
                holes: hole_cells.clone(),
                leaper: (a, b),
            };
            for start in [None, Some(*square)] {
                let demands = Demands {
                    closed: false,
                    clues: start.map(|s| (0, shape.index_of(s))).into_iter().collect(),
                };
                let expected = common::tours_of(&shape, &demands, usize::MAX).len();
                assert_eq!(expected, 1);
                let leaper = format!("{a},{b}");
                for of in [2, 3, 5] {
                    let files: Vec<String> = (1..=of)
                        .map(|k| {
                            let part = format!("{k}/{of}");
                            let mut args = vec!["count", "--board", board, "--leaper", &leaper];
                            args.extend(["--part", &part]);
                            if !holes.is_empty() {
                                args.extend(["--holes", holes]);
                            }
                            if let Some(start) = start {
                                args.extend(["--start", start]);
                            }
                            let name = format!("part-{k}.txt");
                            std::fs::write(dir.path().join(&name), common::cli::stdout_of(&args))
                                .unwrap();
                            name
                        })
                        .collect();
                    let mut args = vec!["sum"];
                    args.extend(files.iter().map(String::as_str));
                    let output = common::cli::knightsat()
                        .args(&args)
                        .current_dir(dir.path())
                        .output()
                        .unwrap();
                    assert!(output.status.success(), "{output:?}");
                    assert_eq!(
                        String::from_utf8_lossy(&output.stdout).trim(),
                        expected.to_string(),
                        "{board} holes {holes} leaper {leaper} start {start:?} in {of} parts"
                    );
                    summed += 1;
                }
            }
        }
    }
    assert_eq!(summed, 36);
}

/// A count split by its ends (`--part-by ends`) adds up under `sum` to the
/// oracle's count of a board with a hole, in 1, 3 and 7 parts, and from a1
/// in 20 parts, more than its classes of ends; `sum`
/// refuses a part split by the states among parts split by the ends (its
/// header records another task); and a closed count, which has no ends,
/// is refused in one line with exit 2.
#[test]
fn parts_split_by_their_ends_add_up_under_sum_and_are_not_mixed_with_others() {
    let shape = Shape {
        rows: 5,
        cols: 5,
        holes: vec![common::cli::index_of("e5", 5)],
        leaper: (1, 2),
    };
    let expected = common::tours_of(&shape, &Demands::default(), usize::MAX).len();
    assert!(expected > 1000, "{expected}");
    let dir = tempfile::tempdir().unwrap();
    let part = |k: usize, of: usize, by: &str| -> String {
        let name = format!("{by}-{k}-of-{of}.txt");
        part_without_e5(dir.path(), &name, (k, of), &["--part-by", by])
    };
    for of in [1, 3, 7] {
        let files: Vec<String> = (1..=of).map(|k| part(k, of, "ends")).collect();
        sums_to(
            dir.path(),
            &files,
            expected,
            &format!("in {of} parts by ends"),
        );
    }
    // From a1, in more parts than classes of ends: the parts that share a
    // class split it by its states.
    let from_a1 = Demands {
        closed: false,
        clues: vec![(0, common::cli::index_of("a1", 5))],
    };
    let expected_from_a1 = common::tours_of(&shape, &from_a1, usize::MAX).len();
    let files: Vec<String> = (1..=20)
        .map(|k| {
            let name = format!("from-a1-{k}-of-20.txt");
            part_without_e5(
                dir.path(),
                &name,
                (k, 20),
                &["--part-by", "ends", "--start", "a1"],
            )
        })
        .collect();
    sums_to(
        dir.path(),
        &files,
        expected_from_a1,
        "from a1 in 20 parts by ends",
    );
    let mixed = [part(1, 3, "ends"), part(2, 3, "states"), part(3, 3, "ends")];
    common::cli::refused(
        &["sum", &mixed[0], &mixed[1], &mixed[2]],
        dir.path(),
        "from a count of another problem",
    );
    common::cli::refused(
        &[
            "count",
            "--size",
            "6",
            "--closed",
            "--part",
            "1/2",
            "--part-by",
            "ends",
        ],
        dir.path(),
        "a closed tour has no ends",
    );
}

/// A count killed outright (SIGKILL, which no handler sees) leaves its
/// directory of states; the next count that spills into the same place
/// removes it, while the directory of a count still running there stays.
#[test]
fn the_next_spilling_count_clears_what_a_killed_one_left() {
    use common::cli::{entries, send};
    let dir = tempfile::tempdir().unwrap();
    let mut killed = spilling_in(dir.path());
    send(&killed, libc::SIGKILL);
    killed.wait().unwrap();
    let left = entries(dir.path());
    assert_eq!(left.len(), 1, "{left:?}");
    let named = |pid: u32| format!("knightsat-states-{pid}-");
    let pid = named(killed.id());
    assert!(left[0].starts_with(&pid), "{left:?} not named {pid}…");
    // A count still running keeps its directory through the next count.
    let mut running = spilling_in(dir.path());
    let mut args = spilling_count(dir.path());
    args.extend(["--timeout".to_string(), "3".to_string()]);
    let output = common::cli::knightsat().args(&args).output().unwrap();
    assert_eq!(output.status.code(), Some(124), "{output:?}");
    let now = entries(dir.path());
    assert!(!now.iter().any(|e| e.starts_with(&pid)), "{now:?}");
    let running_pid = named(running.id());
    assert!(now.iter().any(|e| e.starts_with(&running_pid)), "{now:?}");
    send(&running, libc::SIGTERM);
    running.wait().unwrap();
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
}

/// `knightsat ARGS` run under `ulimit -v KIB`: its exit status, standard
/// output and standard error.
fn under_address_limit(kib: u64, args: &[&str]) -> (Option<i32>, String, String) {
    let command = format!("ulimit -v {kib} && exec \"$0\" \"$@\"");
    common::cli::outcome(
        &std::process::Command::new("sh")
            .arg("-c")
            .arg(command)
            .arg(common::cli::binary())
            .args(args)
            .output()
            .unwrap(),
    )
}

/// Under an address-space limit a count never panics or aborts: two
/// threads count where their stacks fit (6x7 under 150,000 KiB panicked
/// "failed to spawn thread"), one thread counts within its default budget
/// (under 100,000 KiB it aborted on a failed allocation), and where the
/// limit leaves too little, the count says so in one line with exit status
/// 2 and leaves no file of states behind (an abort left its directory).
/// The help shows the budget that runs under the limit (it showed 4096).
/// 5x5 open has 1728 tours (`common::count_tours` checks it elsewhere).
#[test]
fn counts_under_an_address_space_limit_finish_or_refuse_in_one_line_leaving_no_file() {
    // Directed open tours, OEIS A306282 (7x6 and 6x6 alike by symmetry).
    let published = |board: &str| {
        fixture_lines("A306282")
            .into_iter()
            .find(|(key, _)| key == board)
            .map(|(_, term)| term)
            .unwrap()
    };
    // Two threads' stacks under 150,000 KiB (any board); one thread
    // within the default budget under 100,000 KiB (6x7's tables).
    for (kib, board, jobs, published_as) in
        [(150_000, "6x6", "2", "6x6"), (100_000, "6x7", "1", "7x6")]
    {
        let (code, out, err) =
            under_address_limit(kib, &["count", "--board", board, "--jobs", jobs]);
        assert_eq!(
            (code, out.trim()),
            (Some(0), published(published_as).as_str()),
            "{kib} KiB, {jobs} jobs: {err}"
        );
    }
    // The budget's room is a third of the limit (146 MiB): the help shows
    // the default that runs, and a larger budget given is refused.
    let (_, help, _) = under_address_limit(150_000, &["count", "-h"]);
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(help.contains("[default: 48]"), "{help}");
    let (code, _, err) = under_address_limit(
        150_000,
        &["count", "--board", "6x7", "--memory-budget", "49"],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("over a third of the address-space limit (ulimit -v: 146 MiB)"),
        "{err}"
    );
    assert!(err.contains("give at most 48"), "{err}");
    // The cube runners (SAT, backtracking) and CaDiCaL's C++ `new` too:
    // their threads panicked, and CaDiCaL aborted in silence (exit 134).
    for kib in [30_000, 35_000] {
        for method in [
            &["sat", "--solver", "cadical"][..],
            &["sat"],
            &["backtrack"],
        ] {
            let mut args = vec!["count", "--size", "5", "--jobs", "2", "--method"];
            args.extend_from_slice(method);
            let (code, out, err) = under_address_limit(kib, &args);
            let case = format!("{kib} KiB, {args:?}: {code:?} {err}");
            match code {
                Some(0) => assert_eq!(out.trim(), "1728", "{case}"),
                Some(2) => assert!(
                    err.lines().count() == 1 && err.starts_with("knightsat: "),
                    "{case}"
                ),
                _ => panic!("{case}"),
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let spill_dir = dir.path().to_str().unwrap();
    // Both spill before the address space runs out (where an abort left
    // the directory); larger limits count on for seconds.
    for (kib, budget) in [(50_000, "4"), (60_000, "16")] {
        let (code, out, err) = under_address_limit(
            kib,
            &[
                "count",
                "--board",
                "6x7",
                "--method",
                "frontier",
                "--frontier-order",
                "rows",
                "--memory-budget",
                budget,
                "--spill-dir",
                spill_dir,
            ],
        );
        let case = format!("{kib} KiB, budget {budget}: {code:?} {err}");
        match code {
            Some(0) => assert_eq!(out.trim(), published("7x6"), "{case}"),
            Some(2) => {
                assert_eq!(err.lines().count(), 1, "{case}");
                assert!(
                    err.starts_with("knightsat: ") && err.contains("memory"),
                    "{case}"
                );
            }
            _ => panic!("{case}"),
        }
        let left = common::cli::entries(dir.path());
        assert!(left.is_empty(), "{case}: left {left:?}");
    }
}

/// Meeting in the middle holds the states at its cut in memory: under a
/// budget it cannot meet (5x6 open in 1 MiB needs 2), the default order
/// counts by rows instead, which fit or spill; meeting in the middle asked
/// for by name, or a count in parts (whose parts must all take one order),
/// is refused in one line that names the orders that spill.
#[test]
fn counts_over_the_meets_budget_take_an_order_that_spills_or_name_one() {
    let dir = tempfile::tempdir().unwrap();
    let spill_dir = dir.path().to_str().unwrap();
    let count = |board: &str, extra: &[&str]| {
        common::cli::knightsat()
            .args(["count", "--board", board, "--method", "frontier"])
            .args(["--memory-budget", "1", "--spill-dir", spill_dir])
            .args(extra)
            .output()
            .unwrap()
    };
    let output = count("5x6", &[]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout)
            .trim()
            .parse::<u64>()
            .ok(),
        Some(common::count_tours(5, 6, false, None))
    );
    // 5x7 met in the middle does not fit in 1 MiB, nor does a part of
    // 6x6.
    for (board, extra) in [
        ("5x7", &["--frontier-order", "meet"][..]),
        ("6x6", &["--part", "1/2"]),
    ] {
        let output = count(board, extra);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{extra:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("held in memory at the cut"), "{stderr}");
        assert!(
            stderr.contains("try --frontier-order rows or snake"),
            "{stderr}"
        );
    }
    assert!(common::cli::entries(dir.path()).is_empty());
}

/// A plain `count` of an open board eight knight files wide splits itself
/// by its ends (saying so with -v): on 8x8 with every square a hole but a
/// 4x5 block in a corner (8x8's route, a small count), and on 8x8 with
/// holes leaving the first three ranks less a corner, its number equals
/// the oracle's, and equals the same count in one piece by rows.
#[test]
fn open_counts_eight_knight_files_wide_split_themselves_by_their_ends() {
    let blocks: [&dyn Fn(usize, usize) -> bool; 2] =
        [&|file, rank| file < 5 && rank < 4, &|file, rank| {
            rank < 3 && !(file == 7 && rank == 2)
        }];
    for keep in blocks {
        let holes: Vec<usize> = (0..64).filter(|&cell| !keep(cell % 8, cell / 8)).collect();
        let shape = Shape {
            rows: 8,
            cols: 8,
            holes: holes.clone(),
            leaper: (1, 2),
        };
        let expected = common::tours_of(&shape, &Demands::default(), usize::MAX).len();
        assert!(expected > 100, "{expected}");
        let names: Vec<String> = holes
            .iter()
            .map(|&cell| format!("{}{}", (b'a' + (cell % 8) as u8) as char, cell / 8 + 1))
            .collect();
        let holes = names.join(",");
        // Within the budget that holds the whole square count
        // (`count::route::splits_by_ends`), the board would count whole.
        let output = common::cli::knightsat()
            .args(["count", "--size", "8", "--holes", &holes, "-v"])
            .args(["--memory-budget", "4096"])
            .output()
            .unwrap();
        let (status, stdout, stderr) = common::cli::outcome(&output);
        assert_eq!(status, Some(0), "{stderr}");
        assert_eq!(stdout.trim(), expected.to_string(), "{holes}");
        assert!(stderr.contains("route: the frontier counter"), "{stderr}");
        assert!(
            stderr.contains("frontier: split by its ends into "),
            "{stderr}"
        );
        let by_rows = common::cli::stdout_of(&[
            "count",
            "--size",
            "8",
            "--holes",
            &holes,
            "--method",
            "frontier",
            "--frontier-order",
            "rows",
        ]);
        assert_eq!(by_rows.trim(), expected.to_string(), "{holes}, rows");
    }
}

/// The parts of every open 8x8 tour counted so far
/// (`fixtures/8x8-open-ends/part-K.txt`, kept as `scripts/count-parts.sh`
/// finishes them, issue 60): each file holds its own part, all of one
/// split (one header, one fingerprint), and `sum` adds up the run of them
/// from part 1 to what the test adds up itself; once all 136 are there,
/// their sum must be OEIS A165134's term for 8x8.
#[test]
fn the_open_8x8_parts_kept_so_far_are_one_split_and_add_up() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/8x8-open-ends");
    let mut parts = std::collections::BTreeMap::new();
    let mut headers = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let k: usize = name
            .strip_prefix("part-")
            .and_then(|rest| rest.strip_suffix(".txt"))
            .and_then(|k| k.parse().ok())
            .unwrap_or_else(|| panic!("{name}: not part-K.txt"));
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{name}: a header and one line");
        let fields: Vec<&str> = lines[1].split('\t').collect();
        assert_eq!(fields.len(), 3, "{name}: {}", lines[1]);
        assert_eq!(fields[0], format!("part {k}/136"), "{name}");
        assert!(
            lines[0].starts_with(&format!(
                "# knightsat part counts {}: parts 136;",
                fields[2]
            )),
            "{name}: {}",
            lines[0]
        );
        assert!(lines[0].contains("split ends; board 8x8;"), "{name}");
        headers.insert(lines[0].to_string());
        parts.insert(k, (path, fields[1].parse::<u128>().unwrap()));
    }
    assert_eq!(headers.len(), 1, "parts of two splits: {headers:?}");
    let run = (1..=136).take_while(|k| parts.contains_key(k)).count();
    assert!(run >= 1, "no part 1");
    let files: Vec<&str> = (1..=run).map(|k| parts[&k].0.to_str().unwrap()).collect();
    let range = format!("1-{run}");
    let mut args = vec!["sum", "--cubes", &range];
    args.extend(&files);
    let expected: u128 = (1..=run).map(|k| parts[&k].1).sum();
    assert_eq!(common::cli::stdout_of(&args).trim(), expected.to_string());
    if run == 136 {
        let (_, total) = fixture_lines("A165134")
            .into_iter()
            .find(|(board, _)| board == "8x8")
            .unwrap();
        assert_eq!(expected.to_string(), total);
    }
}

/// Without a limit, the default budget is what the machine has room for:
/// under the memory `/proc/meminfo` calls available, at least half of it,
/// and the help shows it. Where it holds the whole open 8x8 count (20,000
/// MiB: `count::route`), a plain `count --size 8` takes that route, in
/// one piece; where it does not, the count splits itself by its ends.
#[test]
fn the_default_budget_is_the_machines_room_and_a_plain_8x8_count_takes_the_route_it_holds() {
    let Some(available) = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines().find_map(|line| {
                let kib = line
                    .strip_prefix("MemAvailable:")?
                    .trim()
                    .strip_suffix("kB")?;
                kib.trim().parse::<u64>().ok()
            })
        })
        .map(|kib| kib >> 10)
    else {
        return; // no /proc: the default stays 4096 (tested in the library)
    };
    let help = common::cli::stdout_of(&["count", "-h"]);
    let shown: u64 = help
        .split("[default: ")
        .filter_map(|rest| rest.split(']').next()?.parse().ok())
        .find(|&mib: &u64| mib > 64)
        .expect("the help shows the memory budget's default");
    // MemAvailable moves between the two reads: a few percent of slack.
    assert!(
        shown <= available + available / 20,
        "{shown} of {available}"
    );
    assert!(
        shown >= available / 2 - available / 20,
        "{shown} of {available}"
    );
    let output = common::cli::knightsat()
        .args(["count", "--size", "8", "-v", "--timeout", "1"])
        .output()
        .unwrap();
    let (status, _, stderr) = common::cli::outcome(&output);
    assert_eq!(status, Some(124), "{stderr}");
    assert!(stderr.contains("route: the frontier counter"), "{stderr}");
    assert_eq!(
        stderr.contains("split by its ends into 136 classes"),
        shown < 20_000,
        "default {shown} MiB: {stderr}"
    );
}
