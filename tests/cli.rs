//! The command-line tool: every command and every format, decoding every
//! solver's output, and the files it writes: complete or absent, through
//! named pipes, links and descriptors, with their permissions kept, and no
//! temporary file left by a failure or a signal. (What it says when it
//! refuses or fails is in tests/messages.rs.)

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use common::cli::{
    binary, decode_text, entries, fixture, index_of, knightsat, parse_moves, run, send,
    stdout_bytes, stdout_of,
};
use predicates::prelude::*;

/// Reads the numbered grid back into a tour: rank labels on the left, top
/// rank first, file letters on the last line.
fn parse_grid(text: &str, rows: usize, cols: usize) -> Vec<usize> {
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), rows + 1, "{text}");
    let files: Vec<&str> = lines[rows].split_whitespace().collect();
    let expected_files: Vec<String> = (0..cols)
        .map(|f| ((b'a' + f as u8) as char).to_string())
        .collect();
    assert_eq!(files, expected_files);
    let mut order = vec![usize::MAX; rows * cols];
    for (i, line) in lines[..rows].iter().enumerate() {
        let numbers: Vec<usize> = line
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect();
        let rank = rows - i;
        assert_eq!(numbers[0], rank, "rank label");
        for (file, &number) in numbers[1..].iter().enumerate() {
            order[number - 1] = (rank - 1) * cols + file;
        }
    }
    order
}

#[test]
fn solve_prints_a_valid_tour_in_every_format() {
    let grid = stdout_of(&["solve", "--size", "5"]);
    assert!(
        common::is_tour(5, 5, false, &parse_grid(&grid, 5, 5)),
        "{grid}"
    );

    let moves = stdout_of(&["solve", "--board", "3x4", "--format", "moves"]);
    assert!(
        common::is_tour(3, 4, false, &parse_moves(&moves, 4)),
        "{moves}"
    );

    let json = stdout_of(&["solve", "--board", "5x6", "--closed", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let keys: Vec<&str> = value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        ["closed", "cols", "rows", "tour"],
        "exactly these keys"
    );
    assert!(
        json.starts_with(r#"{"rows":5,"cols":6,"closed":true,"tour":["a1","#),
        "{json}"
    );
    assert_eq!(
        (value["rows"].as_u64(), value["cols"].as_u64()),
        (Some(5), Some(6))
    );
    assert_eq!(value["closed"], true);
    let tour: Vec<usize> = value["tour"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| index_of(s.as_str().unwrap(), 6))
        .collect();
    assert!(common::is_tour(5, 6, true, &tour));
    assert_eq!(tour[0], 0, "closed tours start at a1 by default");
}

#[test]
fn solve_honours_start_and_end() {
    let moves = stdout_of(&[
        "solve", "--size", "5", "--start", "c3", "--end", "a1", "--format", "moves",
    ]);
    let tour = parse_moves(&moves, 5);
    assert!(common::is_tour(5, 5, false, &tour));
    assert_eq!((tour[0], tour[24]), (index_of("c3", 5), 0));
}

#[test]
fn the_default_closed_start_is_announced() {
    knightsat()
        .args(["solve", "--size", "6", "--closed", "--format", "moves"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("a1 "))
        .stderr(predicate::str::contains("start fixed at a1"));
}

#[test]
fn encode_matches_the_golden_files_byte_for_byte() {
    for (args, golden) in [
        (&["--board", "3x3"][..], "golden/3x3-open.cnf"),
        (&["--board", "3x4"], "golden/3x4-open.cnf"),
        (&["--board", "5x6", "--closed"], "golden/5x6-closed.cnf"),
    ] {
        let expected = std::fs::read(fixture(golden)).unwrap();
        let output = stdout_bytes(&[&["encode"][..], args].concat());
        assert!(output == expected, "encode {args:?} differs from {golden}");
    }
}

#[test]
fn encode_to_a_file_is_atomic_and_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tour.cnf");
    knightsat()
        .args(["encode", "--board", "5x6", "--closed", "-o"])
        .arg(&path)
        .assert()
        .success()
        .stderr(predicate::str::contains("wrote"));
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(fixture("golden/5x6-closed.cnf")).unwrap()
    );
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["tour.cnf"], "temporary files left behind");

    // A failed run leaves no file under the requested name.
    let missing = dir.path().join("no-such-dir").join("tour.cnf");
    knightsat()
        .args(["encode", "--size", "5", "-o"])
        .arg(&missing)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no-such-dir"));
    assert!(!missing.exists());
}

#[test]
fn encode_writes_into_a_named_pipe_without_replacing_it() {
    // Like -o /dev/null: a special file is written, never renamed over.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    knightsat()
        .args(["encode", "--board", "3x4", "-o"])
        .arg(&fifo)
        .assert()
        .success();
    let written = reader.join().unwrap();
    assert_eq!(
        written,
        std::fs::read(fixture("golden/3x4-open.cnf")).unwrap()
    );
    assert!(
        std::os::unix::fs::FileTypeExt::is_fifo(&std::fs::metadata(&fifo).unwrap().file_type()),
        "the pipe was replaced"
    );
}

#[test]
fn decode_reads_what_each_solver_prints() {
    for (output, format) in [
        ("solver-output/3x4-open.kissat.out", "moves"),
        ("solver-output/3x4-open.minisat.out", "json"),
        ("solver-output/3x4-open.cadical.out", "moves"),
        ("solver-output/3x4-open.picosat.out", "json"),
    ] {
        let text = stdout_of(&[
            "decode",
            "--cnf",
            fixture("golden/3x4-open.cnf").to_str().unwrap(),
            fixture(output).to_str().unwrap(),
            "--format",
            format,
        ]);
        let tour = if format == "json" {
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            value["tour"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| index_of(s.as_str().unwrap(), 4))
                .collect()
        } else {
            parse_moves(&text, 4)
        };
        assert!(common::is_tour(3, 4, false, &tour), "{output}: {text}");
    }
    // From stdin, default board format.
    let grid = knightsat()
        .args(["decode", "--cnf"])
        .arg(fixture("golden/3x4-open.cnf"))
        .pipe_stdin(fixture("solver-output/3x4-open.kissat.out"))
        .unwrap()
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(common::is_tour(
        3,
        4,
        false,
        &parse_grid(&String::from_utf8(grid).unwrap(), 3, 4)
    ));
}

#[test]
fn decode_reports_unsatisfiable_as_no_tour() {
    for solver in ["kissat", "minisat", "cadical", "picosat"] {
        let output = format!("solver-output/3x3-open.{solver}.out");
        knightsat()
            .args(["decode", "--cnf"])
            .arg(fixture("golden/3x3-open.cnf"))
            .arg(fixture(&output))
            .assert()
            .code(20)
            .stdout("no tour exists for these constraints\n");
    }
}

#[test]
fn decode_accepts_a_model_that_omits_variables() {
    // MiniSat leaves out variables that occur in no clause; an omitted
    // variable is false. Here every false literal is left out.
    let minisat = std::fs::read_to_string(fixture("solver-output/3x4-open.minisat.out")).unwrap();
    let positive: Vec<&str> = minisat
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .filter(|l| !l.starts_with('-'))
        .collect();
    let text = decode_text(
        &fixture("golden/3x4-open.cnf"),
        &format!("SAT\n{}\n", positive.join(" ")),
    )
    .success()
    .get_output()
    .stdout
    .clone();
    let text = String::from_utf8(text).unwrap();
    assert!(
        common::is_tour(3, 4, false, &parse_grid(&text, 3, 4)),
        "{text}"
    );
}

#[test]
fn verify_accepts_tours_and_names_the_first_violation() {
    let good = "a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3";
    let cases: [(&[&str], &str, i32, &str); 14] = [
        (&["--board", "3x4"], good, 0, "valid open knight tour"),
        (
            &["--board", "3x4", "--start", "a1", "--end", "d3"],
            good,
            0,
            "valid open knight tour",
        ),
        (
            &["--board", "3x4", "--at", "2=c2", "--at", "12=d3"],
            good,
            0,
            "valid open knight tour",
        ),
        (
            &["--board", "3x4", "--at", "2=b1"],
            good,
            1,
            "move 2 is on c2, but the clue puts it on b1",
        ),
        (
            &["--board", "3x4", "--leaper", "3,1"],
            good,
            1,
            "move 1 to 2, a1 to c2, is not a camel move",
        ),
        (
            &["--board", "3x4", "--holes", "b2"],
            good,
            1,
            "square 11, b2, is a hole of the board",
        ),
        (
            &["--board", "3x4", "--at", "13=b2"],
            good,
            2,
            "move numbers run from 1",
        ),
        (&["--board", "3x4", "--closed"], good, 1, "not closed"),
        (
            &["--board", "3x4", "--start", "b1"],
            good,
            1,
            "starts on a1, not on b1",
        ),
        (
            &["--board", "3x4"],
            "a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 d3 b2",
            1,
            "move 10 to 11, d1 to d3, is not a knight move",
        ),
        (&["--board", "3x4"], "a1 c2 a1", 1, "a1 is visited twice"),
        (
            &["--board", "3x4"],
            "a1 c2",
            1,
            "b1 is never visited (2 of 12 squares visited)\n",
        ),
        (&["--board", "3x4"], "a1 c2 z9", 2, "z9"),
        (&[], good, 2, "needs --board"),
    ];
    for (args, input, code, words) in cases {
        let output = knightsat()
            .arg("verify")
            .args(args)
            .write_stdin(input)
            .assert()
            .code(code)
            .get_output()
            .clone();
        let text = String::from_utf8_lossy(if code == 0 {
            &output.stdout
        } else {
            &output.stderr
        })
        .to_string();
        assert!(text.contains(words), "verify {args:?} <<< {input}: {text}");
        assert_eq!(text.matches(words).count(), 1, "said once: {text}");
    }

    // JSON carries its board and closedness; a file argument works like stdin.
    let json = stdout_of(&["solve", "--size", "6", "--closed", "--format", "json"]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tour.json");
    std::fs::write(&file, &json).unwrap();
    knightsat()
        .arg("verify")
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "valid closed knight tour of the 6x6 board",
        ));
    knightsat()
        .args(["verify", "--size", "8"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("6x6"));
}

#[test]
fn help_documents_the_exit_statuses() {
    for args in [
        &["--help"][..],
        &["solve", "--help"],
        &["decode", "--help"],
        &["verify", "--help"],
        &["encode", "--help"],
    ] {
        knightsat()
            .args(args)
            .assert()
            .success()
            .stdout(predicate::str::contains("20  no tour exists"));
    }
}

#[test]
fn stats_counts_match_the_written_header() {
    let json = stdout_of(&["stats", "--board", "5x6", "--closed", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let golden = std::fs::read_to_string(fixture("golden/5x6-closed.cnf")).unwrap();
    let header = golden.lines().find(|l| l.starts_with("p cnf")).unwrap();
    assert_eq!(
        header,
        format!("p cnf {} {}", value["vars"], value["clauses"])
    );
    let table = stdout_of(&["stats", "--board", "5x6", "--closed"]);
    assert!(
        table.contains("closing-move") && table.contains("variables: "),
        "{table}"
    );
}

#[test]
#[allow(clippy::too_many_lines, reason = "a table of cases, one per option")]
fn board_files_holes_clues_and_leapers_from_the_command_line() {
    // A drawn board is the same board as --holes: byte-identical CNF.
    let drawn = "\n.....\n.....\n..#..\n.....\n.....\n\n";
    let from_file = knightsat()
        .args(["encode", "--board-file", "-"])
        .write_stdin(drawn)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(
        from_file,
        stdout_bytes(&["encode", "--size", "5", "--holes", "c3"])
    );
    // Spaces are holes too; rank 1 is the bottom line.
    let spaced = knightsat()
        .args(["encode", "--board-file", "-"])
        .write_stdin("....\n... \n....\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let spaced = String::from_utf8(spaced).unwrap();
    assert!(spaced.contains("c option holes d2\n"), "{spaced}");

    // A CNF with holes, a leaper and clues decodes from a real solver's output.
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("irregular.cnf");
    let args = [
        "--board", "5x6", "--holes", "a1,f5", "--leaper", "2,1", "--at", "10=c3",
    ];
    let mut encode = vec!["encode", "-o", cnf.to_str().unwrap()];
    encode.extend(args);
    knightsat().args(&encode).assert().success();
    let mut solve = vec!["solve", "--format", "moves"];
    solve.extend(args);
    let moves = stdout_of(&solve);
    let names: Vec<&str> = moves.split_whitespace().collect();
    assert_eq!(names.len(), 28);
    assert_eq!(names[9], "c3");
    assert!(!names.contains(&"a1") && !names.contains(&"f5"));
    // A model for it, written as a solver would: the tour's x variables true.
    // x(t, s) = 1 + t*28 + index(s), index over the 28 squares in row-major order.
    let squares: Vec<String> = (0..5)
        .flat_map(|rank| (0..6).map(move |file| format!("{}{}", (b'a' + file) as char, rank + 1)))
        .filter(|name| name != "a1" && name != "f5")
        .collect();
    let vars: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(t, name)| (1 + t * 28 + squares.iter().position(|s| s == name).unwrap()).to_string())
        .collect();
    let answer = format!("s SATISFIABLE\nv {} 0\n", vars.join(" "));
    let decoded = knightsat()
        .args([
            "decode",
            "--format",
            "moves",
            "--cnf",
            cnf.to_str().unwrap(),
            "-",
        ])
        .write_stdin(answer)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8(decoded).unwrap(), moves);

    // Theorems are for plain boards: a holed 4x4 is searched, not refused.
    let holed = knightsat()
        .args(["solve", "--size", "4", "--holes", "a1,d4"])
        .assert()
        .get_output()
        .clone();
    assert!(!String::from_utf8_lossy(&holed.stderr).contains("theorem"));

    // Bad shapes, clues and leapers: one line, exit 2, naming the problem.
    let cases: [(&[&str], &str, &str); 14] = [
        (
            &["solve", "--board-file", "-"],
            "...\n..\n...\n",
            "ragged board: line 2",
        ),
        (&["solve", "--board-file", "-"], "\n  \n", "empty"),
        (&["solve", "--board-file", "-"], "###\n# #\n", "no squares"),
        (
            &["solve", "--board-file", "-"],
            "..x\n...\n",
            "line 1 has 'x'",
        ),
        (
            &[
                "solve",
                "--size",
                "3",
                "--holes",
                "a1,b2,c3,a2,a3,b1,b3,c1,c2",
            ],
            "",
            "no squares",
        ),
        (
            &["solve", "--size", "5", "--holes", "f6"],
            "",
            "not on the 5x5 board",
        ),
        (
            &["solve", "--size", "5", "--holes", "c3", "--start", "c3"],
            "",
            "c3 is a hole",
        ),
        (
            &["solve", "--size", "5", "--at", "0=a1"],
            "",
            "move numbers run from 1",
        ),
        (
            &["solve", "--size", "5", "--at", "26=a1"],
            "",
            "move numbers run from 1",
        ),
        (
            &["solve", "--size", "5", "--at", "a1"],
            "",
            "expected N=SQUARE",
        ),
        (
            &["solve", "--size", "5", "--at", "3=a1", "--at", "3=b1"],
            "",
            "two squares for move 3",
        ),
        (
            &["solve", "--size", "5", "--at", "3=a1", "--at", "4=a1"],
            "",
            "a1 has two move numbers",
        ),
        (
            &["solve", "--size", "5", "--leaper", "0,0"],
            "",
            "never moves",
        ),
        (
            &["solve", "--size", "5", "--leaper", "1"],
            "",
            "expected A,B",
        ),
    ];
    for (args, stdin, words) in cases {
        let output = knightsat()
            .args(args)
            .write_stdin(stdin)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
    }
}

#[test]
fn every_method_prints_a_verified_tour_in_every_format() {
    for method in ["sat", "warnsdorff", "backtrack"] {
        let grid = stdout_of(&["solve", "--size", "6", "--method", method]);
        assert!(
            common::is_tour(6, 6, false, &parse_grid(&grid, 6, 6)),
            "{method}: {grid}"
        );
        let moves = stdout_of(&[
            "solve", "--board", "5x6", "--closed", "--method", method, "--format", "moves",
        ]);
        let tour = parse_moves(&moves, 6);
        assert!(common::is_tour(5, 6, true, &tour), "{method}: {moves}");
        assert_eq!(tour[0], 0, "{method}: a closed tour starts on a1");
        let json = stdout_of(&[
            "solve", "--size", "5", "--start", "c3", "--method", method, "--format", "json",
        ]);
        assert!(json.contains(r#""tour":["c3","#), "{method}: {json}");
        let svg = stdout_of(&[
            "solve", "--size", "5", "--method", method, "--format", "svg",
        ]);
        assert!(
            svg.starts_with("<svg") || svg.starts_with("<?xml"),
            "{method}"
        );
    }
}

#[test]
fn backtracking_counts_and_lists_what_sat_does() {
    for args in [
        &["count", "--size", "5"][..],
        &["count", "--board", "5x6", "--closed"],
        &["count", "--size", "5", "--up-to-symmetry"],
        &["count", "--size", "5", "--start", "a1", "--limit", "100"],
        &["count", "--board", "4x5", "--holes", "b2"],
        &["count", "--board", "3x5", "--leaper", "0,1"],
        &["count", "--size", "5", "--at", "1=a1", "--at", "9=c3"],
        &[
            "count", "--board", "5x6", "--closed", "--at", "2=b3", "--end", "c2",
        ],
    ] {
        let sat = stdout_of(args);
        let backtrack = stdout_of(&[args, &["--method", "backtrack"]].concat());
        assert_eq!(sat, backtrack, "{args:?}");
    }
    let mut sat: Vec<String> =
        stdout_of(&["solve", "--board", "3x4", "--all", "--format", "moves"])
            .lines()
            .map(String::from)
            .collect();
    let mut backtrack: Vec<String> = stdout_of(&[
        "solve",
        "--board",
        "3x4",
        "--all",
        "--format",
        "moves",
        "--method",
        "backtrack",
    ])
    .lines()
    .map(String::from)
    .collect();
    sat.sort();
    backtrack.sort();
    assert_eq!(sat.len(), 16);
    assert_eq!(sat, backtrack);
}

#[test]
fn backtracking_honours_the_timeout() {
    // Listing every tour of 8x8 takes far longer than a second.
    let output = knightsat()
        .args([
            "solve",
            "--size",
            "8",
            "--all",
            "--method",
            "backtrack",
            "--format",
            "moves",
            "--timeout",
            "1",
        ])
        .assert()
        .code(124)
        .get_output()
        .clone();
    assert!(
        !output.stdout.is_empty(),
        "tours found before the time ran out"
    );
    assert_eq!(String::from_utf8(output.stderr).unwrap().lines().count(), 1);
}

#[test]
fn warnsdorff_seeds_are_reproducible() {
    let run = |seed: &str| {
        stdout_of(&[
            "solve",
            "--size",
            "12",
            "--method",
            "warnsdorff",
            "--seed",
            seed,
            "--format",
            "moves",
        ])
    };
    assert_eq!(run("7"), run("7"));
    let tour = parse_moves(&run("7"), 12);
    assert!(common::is_tour(12, 12, false, &tour));
}

#[test]
fn outputs_go_through_descriptors_and_links_and_keep_permissions() {
    let dir = tempfile::tempdir().unwrap();
    // /dev/stdout is this process's descriptor 1, wherever it points.
    let out = std::fs::File::create(dir.path().join("out.txt")).unwrap();
    let status = Process::new(binary())
        .args(["encode", "--size", "5", "-o", "/dev/stdout"])
        .stdout(out)
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(dir.path().join("out.txt")).unwrap();
    assert!(text.starts_with("c knightsat"), "{text:.40}");
    assert!(std::fs::symlink_metadata("/dev/stdout")
        .unwrap()
        .file_type()
        .is_symlink());
    // A private file stays private; a link stays a link, its target replaced.
    let private = dir.path().join("private.cnf");
    std::fs::write(&private, "OLD").unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::os::unix::fs::symlink("private.cnf", dir.path().join("link.cnf")).unwrap();
    let (code, stderr) = run(&["encode", "--size", "5", "-o", "link.cnf"], dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(std::fs::symlink_metadata(dir.path().join("link.cnf"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&private)
        .unwrap()
        .starts_with("c knightsat"));
    let mode = std::fs::metadata(&private).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert_eq!(entries(dir.path()), ["link.cnf", "out.txt", "private.cnf"]);
    // A missing directory is named as given, not as a temporary file.
    let (code, stderr) = run(&["encode", "--size", "5", "-o", "nodir/x.cnf"], dir.path());
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("nodir/x.cnf") && !stderr.contains("tmp"),
        "{stderr}"
    );
}

#[test]
fn a_signal_during_encode_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        let mut child = Process::new(binary())
            .args(["encode", "--size", "40", "-o", "big.cnf"])
            .current_dir(dir.path())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Wait until the temporary file exists, so the signal lands mid-write.
        let started = Instant::now();
        while entries(dir.path()).is_empty() && started.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(20));
        }
        send(&child, signal);
        let status = child.wait().unwrap();
        if status.success() {
            continue; // finished first: then the file is complete
        }
        assert_eq!(status.code(), Some(128 + signal), "{status}");
        assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
    }
}
