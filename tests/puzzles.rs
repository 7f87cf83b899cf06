//! Numbered-grid puzzles: every generated puzzle has exactly one solution
//! (by `count`, and by the oracle on small boards), that solution is the
//! tour it came from, no clue can be dropped, and bad puzzles are refused.

use crate::common;

use common::cli::{knightsat, stdout_of};
use common::{Demands, Shape};
use predicates::prelude::*;

/// A generated puzzle, from its JSON.
struct Made {
    json: String,
    clues: Vec<(usize, String)>,
    solution: Vec<String>,
}

fn make(args: &[&str]) -> Made {
    let mut all = vec!["puzzle", "--format", "json", "--solution"];
    all.extend_from_slice(args);
    let json = stdout_of(&all);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let clues = value["clues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|clue| {
            let (n, square) = clue.as_str().unwrap().split_once('=').unwrap();
            (n.parse().unwrap(), square.to_string())
        })
        .collect();
    let solution = value["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    Made {
        json,
        clues,
        solution,
    }
}

#[test]
fn generated_puzzles_have_one_solution_the_tour_they_came_from() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], Shape, bool); 6] = [
        (&["--size", "5"], Shape::knight(5, 5), false),
        (&["--size", "6"], Shape::knight(6, 6), false),
        (&["--size", "6", "--closed"], Shape::knight(6, 6), true),
        (&["--board", "5x6", "--closed"], Shape::knight(5, 6), true),
        (
            &["--size", "5", "--holes", "c3"],
            Shape {
                holes: vec![12],
                ..Shape::knight(5, 5)
            },
            false,
        ),
        (
            &["--board", "3x4", "--leaper", "0,1"],
            Shape {
                leaper: (0, 1),
                ..Shape::knight(3, 4)
            },
            false,
        ),
    ];
    for (args, shape, closed) in cases {
        for seed in ["1", "2"] {
            let mut with_seed = args.to_vec();
            with_seed.extend(["--seed", seed]);
            let made = make(&with_seed);
            let case = format!("{with_seed:?}");
            let n = shape.squares();
            assert!(made.clues.len() < n, "{case}: every square a clue");
            // The solution is a tour that meets the clues, by the oracle.
            let path: Vec<usize> = made.solution.iter().map(|s| shape.index_of(s)).collect();
            let clues: Vec<(usize, usize)> = made
                .clues
                .iter()
                .map(|(k, square)| (k - 1, shape.index_of(square)))
                .collect();
            let demands = Demands {
                closed,
                clues: clues.clone(),
            };
            assert!(common::is_tour_of(&shape, &demands, &path), "{case}");
            // `count` finds exactly one solution; `solve` finds that one.
            let file = dir.path().join(format!("puzzle-{seed}.json"));
            std::fs::write(&file, &made.json).unwrap();
            let file = file.to_str().unwrap();
            let count = stdout_of(&["count", "--puzzle", file]);
            assert_eq!(count.trim(), "1", "{case}");
            let solved = stdout_of(&["solve", "--puzzle", file, "--format", "moves"]);
            assert_eq!(solved.trim(), made.solution.join(" "), "{case}");
            // The same through the printed grid (closedness passed as a flag).
            let mut grid_args = vec!["puzzle"];
            grid_args.extend_from_slice(&with_seed);
            let grid = stdout_of(&grid_args);
            let grid_file = dir.path().join(format!("puzzle-{seed}.txt"));
            std::fs::write(&grid_file, &grid).unwrap();
            let grid_file = grid_file.to_str().unwrap();
            let mut solve_grid = vec!["solve", "--puzzle", grid_file, "--format", "moves"];
            let mut leaper = args.iter().skip_while(|a| **a != "--leaper").take(2);
            if let (Some(flag), Some(value)) = (leaper.next(), leaper.next()) {
                solve_grid.extend([*flag, *value]);
            }
            if closed {
                solve_grid.push("--closed");
            }
            assert_eq!(
                stdout_of(&solve_grid).trim(),
                made.solution.join(" "),
                "{case}"
            );
            // On small boards the oracle agrees: one solution, and no clue
            // can go without letting in another.
            if n <= 25 {
                let all = common::tours_of(&shape, &demands, 2);
                assert_eq!(
                    all,
                    std::slice::from_ref(&path),
                    "{case}: the oracle's solutions"
                );
                for drop in 0..clues.len() {
                    let mut fewer = clues.clone();
                    fewer.remove(drop);
                    let looser = Demands {
                        closed,
                        clues: fewer,
                    };
                    assert_eq!(
                        common::tours_of(&shape, &looser, 2).len(),
                        2,
                        "{case}: clue {:?} could be dropped",
                        clues[drop]
                    );
                }
            }
            // The same seed makes the same puzzle.
            assert_eq!(make(&with_seed).json, made.json, "{case}");
        }
    }
}

/// `--timeout` limits the whole generation. Cut short while clues are
/// dropped, it prints the puzzle so far: its one solution is still the
/// tour it came from, and stderr counts the clues not tried. Too short for
/// the first tour, it is exit 124.
#[test]
fn a_timeout_prints_the_puzzle_so_far_or_exit_124() {
    let dir = tempfile::tempdir().unwrap();
    let shape = Shape::knight(8, 8);
    // 8x8 takes most of a second in all here; its first tour, hundredths.
    let output = knightsat()
        .args(["puzzle", "--size", "8", "--seed", "1", "--timeout", "0.2"])
        .args(["--format", "json", "--solution"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let json = String::from_utf8(output.stdout).unwrap();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let clue = |text: &serde_json::Value| {
        let (n, square) = text.as_str().unwrap().split_once('=').unwrap();
        (n.parse::<usize>().unwrap() - 1, shape.index_of(square))
    };
    let demands = Demands {
        closed: false,
        clues: value["clues"]
            .as_array()
            .unwrap()
            .iter()
            .map(clue)
            .collect(),
    };
    let path: Vec<usize> = value["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|square| shape.index_of(square.as_str().unwrap()))
        .collect();
    assert!(common::is_tour_of(&shape, &demands, &path), "{json}");
    let file = dir.path().join("cut-short.json");
    std::fs::write(&file, &json).unwrap();
    let count = stdout_of(&["count", "--puzzle", file.to_str().unwrap()]);
    assert_eq!(count.trim(), "1", "{json}");
    let full = make(&["--size", "8", "--seed", "1"]);
    if stderr.contains("untried") {
        assert!(stderr.contains("of 64 clues untried"), "{stderr}");
        // The same drops in the same order, cut short: every clue of the
        // whole run's puzzle is still there.
        for (n, square) in &full.clues {
            let clue = (n - 1, shape.index_of(square));
            assert!(demands.clues.contains(&clue), "{clue:?}: {stderr}");
        }
    } else {
        // A machine fast enough to try every clue in time.
        assert_eq!(json, full.json, "{stderr}");
    }
    knightsat()
        .args(["puzzle", "--size", "20", "--timeout", "0.001"])
        .assert()
        .code(124)
        .stderr(predicate::str::contains("no answer within 0.001 s"));
}

/// What `solve --puzzle -` prints for `puzzle` on stdin, which must succeed.
fn solved(puzzle: &str) -> String {
    let output = knightsat()
        .args(["solve", "--puzzle", "-"])
        .write_stdin(puzzle.to_string())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(output).unwrap()
}

#[test]
fn a_puzzle_grid_can_be_typed_by_hand() {
    // Unlabelled cells, `0` and `.` for blanks, a hole; read from stdin.
    let puzzle = "\
        0 . . . 24\n\
        . . 0 . .\n\
        . . # . .\n\
        . . . . .\n\
        . 1 . . .\n";
    let grid = solved(puzzle);
    let rows: Vec<Vec<&str>> = grid
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows[4][2], "1", "b1 is the start: {grid}");
    assert_eq!(rows[0][5], "24", "e5 is the end: {grid}");
    assert_eq!(rows[2][3], "#", "c3 is a hole: {grid}");
}

#[test]
fn bad_puzzles_are_refused_in_one_line() {
    let cases = [
        ("1 . .\n. . . .\n. . .\n", "wrong shape"),
        ("1 . .\n. 1 .\n. . .\n", "two squares for move 1: a3 and b2"),
        ("1 . .\n. . .\n. . 10\n", "move numbers run from 1"),
        (
            "1 . .\n. . .\n. . 99999999999999999999999\n",
            "clue 99999999999999999999999=c1: move numbers run from 1 to 9",
        ),
        ("1 . x\n. . .\n. . .\n", "holds 'x'"),
        (
            "3 1 . .\n1 . . .\n  a b c\n",
            "should begin with its rank number 2",
        ),
        ("\n\n", "empty"),
        (
            "3 1 . .\n2 . . .\n1 . . .\n  a c d\n",
            "column 2 says 'c', not 'b'",
        ),
        ("# #\n# #\n", "no squares"),
        ("{\"rows\": 3}", "bad JSON puzzle"),
        (
            "3 1 . .\n2 . . .\n1 . . .\n  a b c\n1 2\n",
            "line 5 comes after the grid's file letters but does not begin a 3x3 grid",
        ),
        // A labelled grid cut before its file letters (`head -3`), not a
        // wider grid with its rank numbers as clues.
        (
            "5  .  . 17  .  .\n4  .  .  .  .  .\n3  .  .  .  .  .\n",
            "lines 1 to 3 begin with the rank numbers 5 to 3, but no line of file letters",
        ),
        (
            "\n4 . . . .\n3 . 7 . .\n",
            "lines 2 to 3 begin with the rank numbers 4 to 3",
        ),
        (
            "2 1 .\n1 . .\n  a b\n\n3 1 . .\n2 . . .\n1 . . .\n  a b c\n",
            "line 5 comes after the grid's file letters but does not begin a 2x2 grid",
        ),
    ];
    for (text, words) in cases {
        let output = knightsat()
            .args(["solve", "--puzzle", "-"])
            .write_stdin(text)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{text:?}: {stderr}");
        assert!(stderr.contains(words), "{text:?}: {stderr}");
    }
    // A well-formed puzzle with no solution: 1 and 2 are not a knight move apart.
    knightsat()
        .args(["solve", "--puzzle", "-"])
        .write_stdin("1 2 . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n")
        .assert()
        .code(20)
        .stdout(predicate::str::contains("no tour exists"));
    // --puzzle gives the board; another board option with it is an error.
    knightsat()
        .args(["solve", "--puzzle", "-", "--size", "5"])
        .write_stdin("1 .\n. .\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
}

#[test]
fn a_puzzle_printed_with_its_solution_reads_back_as_that_puzzle() {
    // `puzzle --solution` prints the puzzle, a blank line and the
    // solution: `solve --puzzle` reads the puzzle and finds the solution.
    for (size, seed) in [("5", "1"), ("6", "2"), ("8", "3")] {
        let printed = stdout_of(&["puzzle", "--size", size, "--seed", seed, "--solution"]);
        let (puzzle, solution) = printed.split_once("\n\n").unwrap();
        // The puzzle has one solution: the one printed after it.
        assert_eq!(
            solved(&printed).trim_end(),
            solution.trim_end(),
            "{printed}"
        );
        let alone = stdout_of(&["puzzle", "--size", size, "--seed", seed]);
        assert_eq!(alone.trim_end(), puzzle.trim_end(), "{printed}");
    }
}
