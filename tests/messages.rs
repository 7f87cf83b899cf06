//! What the command says when it refuses or fails, and with which exit
//! status: bad input and contradictory options are one line, exit 2,
//! naming the problem in the user's terms, never a panic, and inputs that
//! used to crash are refused alike; no tour is exit 20, giving up exit 3,
//! a time limit exit 124 with what was found before it; every suggestion
//! (a `--memory-budget`'s way out) works when followed; a byte-order mark
//! is skipped and invisible characters in a refused input are escaped; a
//! failed write is an error and a closed pipe is not.

use std::fs::File;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common;

use common::cli::{
    binary, decode_text, entries, fixture, knightsat, parse_moves, refused, stdout_of,
};
use predicates::prelude::*;

/// Runs the binary in `dir`: exit code, stdout, stderr.
fn run(args: &[&str], dir: &Path) -> (Option<i32>, String, String) {
    common::cli::outcome(&knightsat().args(args).current_dir(dir).output().unwrap())
}

#[test]
fn the_suggested_way_out_of_a_memory_budget_works_under_that_budget() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(
        &[
            "count",
            "--size",
            "6",
            "--method",
            "sat",
            "--memory-budget",
            "1",
        ],
        dir.path(),
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--method backtrack"), "{stderr}");
    // So does the frontier counter's meeting in the middle, named; by
    // itself, or by the default route, it counts by rows instead, which
    // keep on disk what does not fit.
    let (code, _, stderr) = run(
        &[
            "count",
            "--size",
            "6",
            "--method",
            "frontier",
            "--frontier-order",
            "meet",
            "--memory-budget",
            "1",
        ],
        dir.path(),
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--method backtrack") && stderr.lines().count() == 1,
        "{stderr}"
    );
    // (5x6, whose rows fit in 1 MiB: 6x6 spills by rows, near the line
    // between fitting and not when other tests run beside it.)
    let want = common::count_tours(5, 6, false, None).to_string();
    for method in ["frontier", "auto"] {
        let (code, stdout, stderr) = run(
            &[
                "count",
                "--board",
                "5x6",
                "--method",
                method,
                "--memory-budget",
                "1",
            ],
            dir.path(),
        );
        assert_eq!(
            (code, stdout.trim()),
            (Some(0), want.as_str()),
            "{method}: {stderr}"
        );
    }
    // Followed, with the same budget: backtracking picks cubes that fit.
    let (code, stdout, stderr) = run(
        &[
            "count",
            "--size",
            "5",
            "--method",
            "backtrack",
            "--memory-budget",
            "1",
        ],
        dir.path(),
    );
    assert_eq!((code, stdout.trim()), (Some(0), "1728"), "{stderr}");
    let (code, stdout, stderr) = run(
        &[
            "count",
            "--size",
            "6",
            "--method",
            "backtrack",
            "--memory-budget",
            "1",
        ],
        dir.path(),
    );
    assert_eq!((code, stdout.trim()), (Some(0), "6637920"), "{stderr}");
}

/// The numbered board `solve` prints by default is no move list: `verify`
/// says which format to print instead (a new user's first pipe).
#[test]
fn verify_given_a_numbered_board_names_the_formats_it_reads() {
    let dir = tempfile::tempdir().unwrap();
    let (code, board, _) = run(&["solve", "--size", "5"], dir.path());
    assert_eq!(code, Some(0));
    std::fs::write(dir.path().join("tour.txt"), board).unwrap();
    let (code, _, stderr) = run(&["verify", "--size", "5", "tour.txt"], dir.path());
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("numbered board") && stderr.contains("--format moves"),
        "{stderr}"
    );
}

#[test]
fn a_byte_order_mark_starts_any_input_unseen() {
    let dir = tempfile::tempdir().unwrap();
    let bom = "\u{feff}";
    let (_, tour, _) = run(&["solve", "--size", "5", "--format", "moves"], dir.path());
    std::fs::write(dir.path().join("tour.txt"), format!("{bom}{tour}")).unwrap();
    let (code, _, stderr) = run(&["verify", "--size", "5", "tour.txt"], dir.path());
    assert_eq!(code, Some(0), "a tour for verify: {stderr}");

    let (_, puzzle, _) = run(&["puzzle", "--size", "5", "--seed", "1"], dir.path());
    std::fs::write(dir.path().join("puzzle.txt"), format!("{bom}{puzzle}")).unwrap();
    let (code, _, stderr) = run(&["solve", "--puzzle", "puzzle.txt"], dir.path());
    assert_eq!(code, Some(0), "a puzzle grid: {stderr}");
    let (_, json, _) = run(
        &["puzzle", "--size", "5", "--seed", "1", "--format", "json"],
        dir.path(),
    );
    std::fs::write(dir.path().join("puzzle.json"), format!("{bom}{json}")).unwrap();
    let (code, _, stderr) = run(&["solve", "--puzzle", "puzzle.json"], dir.path());
    assert_eq!(code, Some(0), "a JSON puzzle: {stderr}");

    std::fs::write(
        dir.path().join("board.txt"),
        format!("{bom}.....\n.....\n.....\n.....\n.....\n"),
    )
    .unwrap();
    let (code, _, stderr) = run(&["solve", "--board-file", "board.txt"], dir.path());
    assert_eq!(code, Some(0), "a board file: {stderr}");

    let (code, _, stderr) = run(&["encode", "--board", "3x3", "-o", "t.cnf"], dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    std::fs::write(
        dir.path().join("answer.txt"),
        format!("{bom}s UNSATISFIABLE\n"),
    )
    .unwrap();
    let (code, stdout, stderr) = run(&["decode", "--cnf", "t.cnf", "answer.txt"], dir.path());
    assert_eq!(code, Some(20), "a solver's output for decode: {stderr}");
    assert!(stdout.contains("no tour"), "{stdout}{stderr}");
}

#[test]
fn invisible_characters_in_a_refused_input_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    for hidden in ["\u{200b}", "\u{feff}", "\u{202e}", "\u{2060}"] {
        std::fs::write(dir.path().join("tour.txt"), format!("a1 {hidden}c2\n")).unwrap();
        let (code, _, stderr) = run(&["verify", "--size", "5", "tour.txt"], dir.path());
        assert_eq!(code, Some(2), "{stderr}");
        assert!(!stderr.contains(hidden), "printed raw: {stderr:?}");
        let escaped: String = hidden.escape_default().collect();
        assert!(stderr.contains(&escaped), "{stderr:?}");
    }
}

#[test]
fn svg_draws_one_tour_so_all_tours_in_svg_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    refused(
        &[
            "solve", "--size", "5", "--all", "--limit", "2", "--format", "svg",
        ],
        dir.path(),
        "--format svg draws one tour",
    );
    let (code, svg, _) = run(&["solve", "--size", "5", "--format", "svg"], dir.path());
    assert_eq!(code, Some(0));
    roxmltree::Document::parse(&svg).expect("one tour is one well-formed document");
}

#[test]
fn decode_holds_a_cnf_to_its_header_as_kissat_strict_does() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(&["encode", "--size", "5", "-o", "t.cnf"], dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    let (code, model, _) = run(&["solve", "--size", "5", "--format", "json"], dir.path());
    assert_eq!(code, Some(0));
    assert!(model.contains("tour"));
    let text = std::fs::read_to_string(dir.path().join("t.cnf")).unwrap();
    let header = text
        .lines()
        .find(|l| l.starts_with("p cnf "))
        .unwrap()
        .to_string();
    let counts: Vec<usize> = header[6..]
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    let (vars, clauses) = (counts[0], counts[1]);
    std::fs::write(dir.path().join("unsat.txt"), "s UNSATISFIABLE\n").unwrap();
    let (code, _, stderr) = run(&["decode", "--cnf", "t.cnf", "unsat.txt"], dir.path());
    assert_eq!(code, Some(20), "the exact header is read: {stderr}");
    for (wrong, words) in [
        (format!("p cnf {vars} {}", clauses + 1), "promises"),
        (format!("p cnf {vars} {}", clauses - 1), "promises"),
        (format!("p cnf {} {clauses}", vars - 1), "beyond variable"),
    ] {
        std::fs::write(
            dir.path().join("bad.cnf"),
            text.replacen(&header, &wrong, 1),
        )
        .unwrap();
        refused(
            &["decode", "--cnf", "bad.cnf", "unsat.txt"],
            dir.path(),
            words,
        );
    }
}

/// One header, exactly `p cnf VARS CLAUSES`: `decode` refuses what
/// `kissat --strict` refuses (a second header, right after the first or at
/// the end; spaces other than single ones) and takes what it takes (a
/// header declaring more variables than the clauses use), naming what is
/// wrong; `count --cnf`, which counts from the comments, refuses each, a
/// header of other counts by its counts.
#[test]
#[cfg_attr(
    not(has_kissat),
    ignore = "kissat is not on PATH: run scripts/install-solvers.sh"
)]
fn a_cnf_is_held_to_one_header_as_kissat_strict_holds_it() {
    let dir = tempfile::tempdir().unwrap();
    success(&["encode", "--board", "3x4", "-o", "t.cnf"], dir.path());
    std::fs::write(dir.path().join("unsat.txt"), "s UNSATISFIABLE\n").unwrap();
    let text = std::fs::read_to_string(dir.path().join("t.cnf")).unwrap();
    let header = text.lines().find(|l| l.starts_with("p cnf ")).unwrap();
    let counts: Vec<usize> = header[6..].split(' ').map(|w| w.parse().unwrap()).collect();
    let (vars, clauses) = (counts[0], counts[1]);
    let twice = format!("{header}\n{header}");
    let spaced = header.replacen("p cnf", "p  cnf", 1);
    let trailing = format!("{header} ");
    let tab = header.replacen(' ', "\t", 1);
    let more_vars = format!("p cnf {} {clauses}", vars + 5);
    for (name, file, decode_words, count_words) in [
        ("twice", text.replacen(header, &twice, 1), Some("a second header"), "a second header"),
        ("at-end", format!("{text}{header}\n"), Some("a second header"), "a second header"),
        ("spaced", text.replacen(header, &spaced, 1), Some("bad header 'p  cnf"), "bad header 'p  cnf"),
        ("trailing", text.replacen(header, &trailing, 1), Some("bad header"), "bad header"),
        ("tab", text.replacen(header, &tab, 1), Some("bad header"), "bad header"),
        (
            "more-vars",
            text.replacen(header, &more_vars, 1),
            None,
            &format!("the header '{more_vars}' is not the one knightsat writes for the problem its comments describe ('{header}')"),
        ),
    ] {
        let path = dir.path().join(format!("{name}.cnf"));
        std::fs::write(&path, file).unwrap();
        let cnf = path.to_str().unwrap();
        assert_eq!(
            common::kissat_strict_accepts(&path),
            decode_words.is_none(),
            "{name}"
        );
        if let Some(words) = decode_words {
            refused(&["decode", "--cnf", cnf, "unsat.txt"], dir.path(), words);
        } else {
            let (code, _, stderr) = run(&["decode", "--cnf", cnf, "unsat.txt"], dir.path());
            assert_eq!(code, Some(20), "{name}: {stderr}");
        }
        refused(&["count", "--cnf", cnf], dir.path(), count_words);
    }
}

#[test]
fn help_that_cannot_be_written_is_an_error_and_a_closed_pipe_is_not() {
    for args in [&["--help"][..], &["solve", "--help"], &["--version"]] {
        let output = Command::new(env!("CARGO_BIN_EXE_knightsat"))
            .args(args)
            .stdout(File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        let what = if args == ["--version"] {
            "cannot write the version"
        } else {
            "cannot write the help"
        };
        assert!(stderr.contains(what), "{stderr}");
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_knightsat"))
        .arg("--help")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stderr.is_empty());
}

#[test]
fn a_clue_numbered_below_one_says_where_numbers_start() {
    let dir = tempfile::tempdir().unwrap();
    for clue in ["-1=a1", "0=a1"] {
        refused(
            &["solve", "--size", "5", "--at", clue],
            dir.path(),
            "move numbers run from 1",
        );
    }
}

#[test]
fn a_negative_board_side_is_refused_as_a_board_not_as_an_option() {
    let dir = tempfile::tempdir().unwrap();
    for board in ["-3x4", "3x-4"] {
        refused(
            &["count", "--board", board],
            dir.path(),
            "must be a whole number",
        );
    }
}

#[test]
fn a_puzzle_cell_of_zeros_is_blank_like_zero_and_signs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (_, puzzle, _) = run(&["puzzle", "--size", "5", "--seed", "1"], dir.path());
    let with = |blank: &str| {
        // The first blank of the first rank becomes `blank`.
        let mut lines: Vec<String> = puzzle.lines().map(str::to_string).collect();
        let rank1 = lines.len() - 2;
        let at = lines[rank1].find(" .").unwrap() + 1;
        lines[rank1].replace_range(at..=at, blank);
        lines.join("\n") + "\n"
    };
    std::fs::write(dir.path().join("zero.txt"), with("0")).unwrap();
    let (code, zero, stderr) = run(&["solve", "--puzzle", "zero.txt"], dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    std::fs::write(dir.path().join("zeros.txt"), with("00")).unwrap();
    let (code, zeros, stderr) = run(&["solve", "--puzzle", "zeros.txt"], dir.path());
    assert_eq!((code, &zeros), (Some(0), &zero), "{stderr}");
    std::fs::write(dir.path().join("sign.txt"), with("+5")).unwrap();
    refused(&["solve", "--puzzle", "sign.txt"], dir.path(), "holds '+5'");
}

#[test]
fn certify_holds_a_cnf_to_its_header_before_any_checker_runs() {
    let dir = tempfile::tempdir().unwrap();
    // Read as its header says (one clause, 1 2), this CNF is satisfiable;
    // its four lines together are not, and a proof of that must not verify it.
    std::fs::write(
        dir.path().join("wc4.cnf"),
        "p cnf 2 1\n1 2 0\n-1 0\n-2 0\n1 -2 0\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("beyond.cnf"), "p cnf 1 2\n1 0\n-2 0\n").unwrap();
    std::fs::write(dir.path().join("empty.cnf"), "").unwrap();
    std::fs::write(dir.path().join("p.drat"), "0\n").unwrap();
    for (cnf, words) in [
        ("wc4.cnf", "the header promises 1 clause, the file holds 4"),
        (
            "beyond.cnf",
            "beyond variable 1, the last the header declares",
        ),
        ("empty.cnf", "no 'p cnf VARS CLAUSES' header"),
    ] {
        refused(
            &["certify", "--cnf", cnf, "--proof", "p.drat"],
            dir.path(),
            words,
        );
    }
}

#[test]
fn a_proof_to_a_device_or_stdout_needs_a_named_cnf() {
    let dir = tempfile::tempdir().unwrap();
    for proof in ["/dev/null", "-"] {
        refused(
            &["solve", "--size", "4", "--proof", proof],
            dir.path(),
            "needs --cnf-out FILE",
        );
    }
    assert!(!Path::new("/dev/null.cnf").exists());
    assert!(
        std::fs::read_dir(dir.path()).unwrap().next().is_none(),
        "nothing written"
    );
    let (code, _, stderr) = run(
        &[
            "solve",
            "--size",
            "4",
            "--proof",
            "/dev/null",
            "--cnf-out",
            "s4.cnf",
        ],
        dir.path(),
    );
    assert_eq!(code, Some(20), "{stderr}");
    assert!(dir.path().join("s4.cnf").exists());
}

#[test]
fn the_frontier_counter_plans_long_narrow_boards_at_once_and_refuses_huge_ones() {
    let dir = tempfile::tempdir().unwrap();
    // Planning 4x3000 along its long side (a 6000-square frontier) took
    // minutes, past any --timeout; now the count overflows 128 bits or
    // stops at its limit within a second of work.
    let started = std::time::Instant::now();
    let (code, _, stderr) = run(
        &[
            "count",
            "--board",
            "4x3000",
            "--method",
            "frontier",
            "--timeout",
            "5",
        ],
        dir.path(),
    );
    assert!(matches!(code, Some(1 | 124)), "{stderr}");
    assert!(started.elapsed().as_secs() < 30, "{stderr}");
    // The default route picks the frontier counter for a narrow board: one
    // too large for it is refused, not a failure.
    refused(
        &["count", "--board", "3x400000"],
        dir.path(),
        "the frontier counter takes at most 1048576",
    );
}

#[test]
fn standard_input_named_for_two_inputs_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    refused(
        &["verify", "--board-file", "-", "-"],
        dir.path(),
        "--board-file and the tour both read standard input",
    );
    refused(
        &["decode", "--cnf", "-", "-"],
        dir.path(),
        "--cnf and the solver's output both read standard input",
    );
}

#[test]
fn count_help_names_every_method_and_the_signal_statuses() {
    let dir = tempfile::tempdir().unwrap();
    let (code, help, _) = run(&["count", "--help"], dir.path());
    assert_eq!(code, Some(0));
    let first = help.lines().next().unwrap();
    assert!(
        first.contains("backtracking") && first.contains("frontier"),
        "{first}"
    );
    assert!(help.contains("backtrack or frontier"), "{help}");
    assert!(help.contains("129, 130, 143"), "{help}");
}

#[test]
fn no_command_says_so_and_names_the_commands() {
    let dir = tempfile::tempdir().unwrap();
    refused(
        &[],
        dir.path(),
        "no command given: solve, encode, decode, count, verify",
    );
}

/// The standard output of a run that succeeds, with its stderr.
fn success(args: &[&str], dir: &Path) -> (String, String) {
    let (code, stdout, stderr) = run(args, dir);
    assert_eq!(code, Some(0), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    (stdout, stderr)
}

#[test]
fn square_names_are_trimmed_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let (plain, _) = success(
        &[
            "count", "--size", "5", "--start", "a1", "--at", "3=e2", "--holes", "c3",
        ],
        dir.path(),
    );
    let (spaced, _) = success(
        &[
            "count", "--size", "5", "--start", " a1 ", "--at", " 3 = e2 ", "--holes", " c3",
        ],
        dir.path(),
    );
    assert_eq!(plain, spaced);
    let (plain, _) = success(&["count", "--size", "5", "--end", "a1"], dir.path());
    let (spaced, _) = success(&["count", "--size", "5", "--end", "a1 "], dir.path());
    assert_eq!(plain, spaced);
}

#[test]
fn huge_numbers_in_sizes_and_squares_are_too_large_not_malformed() {
    let dir = tempfile::tempdir().unwrap();
    let huge = "99999999999999999999";
    refused(&["solve", "--size", huge], dir.path(), "too large");
    refused(
        &["solve", "--board", &format!("{huge}x5")],
        dir.path(),
        "too large",
    );
    for flag in ["--holes", "--start", "--end"] {
        refused(
            &["solve", "--size", "5", flag, &format!("z{huge}")],
            dir.path(),
            "is not on the 5x5 board",
        );
    }
    refused(
        &["solve", "--size", "5", "--at", &format!("{huge}=a1")],
        dir.path(),
        "move numbers run from 1 to 25",
    );
}

#[test]
fn a_closed_flag_that_contradicts_the_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (puzzle, _) = success(
        &["puzzle", "--size", "5", "--seed", "1", "--format", "json"],
        dir.path(),
    );
    assert!(puzzle.contains(r#""closed":false"#), "{puzzle}");
    std::fs::write(dir.path().join("p.json"), &puzzle).unwrap();
    for command in ["solve", "count"] {
        refused(
            &[command, "--puzzle", "p.json", "--closed"],
            dir.path(),
            "--closed, but the puzzle file says the tour is open",
        );
    }
    let (tour, _) = success(&["solve", "--size", "5", "--format", "json"], dir.path());
    std::fs::write(dir.path().join("t.json"), &tour).unwrap();
    refused(
        &["verify", "--closed", "t.json"],
        dir.path(),
        "--closed, but the tour file says the tour is open",
    );
    let (valid, _) = success(&["verify", "t.json"], dir.path());
    assert!(valid.starts_with("valid open"), "{valid}");
}

#[test]
fn a_depth_past_the_squares_counts_as_the_whole_tour() {
    let dir = tempfile::tempdir().unwrap();
    for depth in ["11", "100000000", "18446744073709551615"] {
        for method in ["sat", "backtrack"] {
            let (count, _) = success(
                &[
                    "count", "--board", "3x4", "--method", method, "--depth", depth,
                ],
                dir.path(),
            );
            assert_eq!(count.trim(), "16", "--depth {depth}");
        }
        success(
            &[
                "solve", "--board", "3x4", "--depth", depth, "--format", "moves",
            ],
            dir.path(),
        );
        success(
            &["cubes", "--board", "3x4", "--depth", depth, "--count"],
            dir.path(),
        );
    }
}

/// The depth `count --sample 1` reports for `args`.
fn sampled_depth(args: &[&str], dir: &Path) -> String {
    let mut all = vec!["count", "--sample", "1"];
    all.extend_from_slice(args);
    let (stdout, _) = success(&all, dir);
    let at = stdout.find("at depth ").expect(&stdout) + "at depth ".len();
    stdout[at..].split_whitespace().next().unwrap().to_string()
}

#[test]
fn more_jobs_than_cores_choose_no_deeper_cubes_than_the_cores() {
    let dir = tempfile::tempdir().unwrap();
    let cores = std::thread::available_parallelism()
        .unwrap()
        .get()
        .to_string();
    let args = |jobs| vec!["--size", "5", "--method", "sat", "--jobs", jobs];
    assert_eq!(
        sampled_depth(&args("1000"), dir.path()),
        sampled_depth(&args(&cores), dir.path())
    );
}

#[test]
fn samples_and_cube_ranges_of_a_board_the_gate_refutes_say_what_count_says() {
    let dir = tempfile::tempdir().unwrap();
    for board in [&["--size", "4"][..], &["--size", "5", "--closed"]] {
        let (count, note) = success(&[&["count"][..], board].concat(), dir.path());
        assert_eq!(count.trim(), "0");
        assert!(note.contains("feasibility gate"), "{note}");
        let (sample, stderr) = success(
            &[&["count", "--sample", "5"][..], board].concat(),
            dir.path(),
        );
        assert_eq!(
            (sample.as_str(), stderr.as_str()),
            (count.as_str(), note.as_str())
        );
    }
    // A task's cube lines, under their header, whatever route answers:
    // `sum` reads them as no tour.
    let (cubes, stderr) = success(
        &[
            "count", "--size", "5", "--closed", "--cubes", "1", "--depth", "2",
        ],
        dir.path(),
    );
    assert!(cubes.starts_with("# knightsat cube counts "), "{cubes}");
    assert!(stderr.contains("feasibility gate"), "{stderr}");
    std::fs::write(dir.path().join("task.txt"), &cubes).unwrap();
    let (total, _) = success(&["sum", "task.txt"], dir.path());
    assert_eq!(total.trim(), "0");
}

#[test]
fn memory_way_outs_work_with_the_other_flags_given() {
    let dir = tempfile::tempdir().unwrap();
    let stderr_of = |args: &[&str]| {
        let (code, _, stderr) = run(args, dir.path());
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        stderr
    };
    // --jobs solves cubes, which need the time-indexed encoding, SAT and a
    // built-in solver; one thread alone would not fit either.
    let stderr = stderr_of(&[
        "solve",
        "--size",
        "30",
        "--jobs",
        "2",
        "--memory-budget",
        "1",
    ]);
    for forbidden in [
        "--encoding successor",
        "--method warnsdorff",
        "--solver",
        "--jobs",
    ] {
        assert!(!stderr.contains(&format!("try {forbidden}")), "{stderr}");
        assert!(!stderr.contains(&format!(", {forbidden}")), "{stderr}");
    }
    assert!(stderr.contains("a larger --memory-budget"), "{stderr}");
    // One thread fits: said, and it works.
    let stderr = stderr_of(&[
        "solve",
        "--size",
        "10",
        "--method",
        "sat",
        "--jobs",
        "2",
        "--memory-budget",
        "10",
    ]);
    assert!(stderr.contains("--jobs 1"), "{stderr}");
    success(
        &[
            "solve",
            "--size",
            "10",
            "--method",
            "sat",
            "--jobs",
            "1",
            "--memory-budget",
            "10",
        ],
        dir.path(),
    );
    // A proof needs SAT and the complete formula.
    let stderr = stderr_of(&[
        "solve",
        "--size",
        "30",
        "--proof",
        "p.drat",
        "--memory-budget",
        "1",
    ]);
    assert!(!stderr.contains("--method warnsdorff"), "{stderr}");
    assert!(!stderr.contains("--encoding successor"), "{stderr}");
    // Cubes of a depth given take the same memory by any method and threads.
    let stderr = stderr_of(&[
        "count",
        "--size",
        "6",
        "--method",
        "sat",
        "--jobs",
        "2",
        "--depth",
        "8",
        "--memory-budget",
        "1",
    ]);
    assert!(stderr.contains("--depth 3 or less fits"), "{stderr}");
    assert!(!stderr.contains("--method backtrack"), "{stderr}");
    assert!(!stderr.contains("fewer --jobs"), "{stderr}");
    // A solver named is SAT's: backtracking does not take it.
    let stderr = stderr_of(&[
        "count",
        "--size",
        "6",
        "--solver",
        "cadical",
        "--memory-budget",
        "1",
    ]);
    assert!(!stderr.contains("--method backtrack"), "{stderr}");
}

#[test]
fn the_clue_memory_refusal_names_backtracking_which_works() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "solve",
        "--size",
        "12",
        "--at",
        "5=c3",
        "--memory-budget",
        "1",
    ];
    let (code, _, stderr) = run(&args, dir.path());
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--method backtrack"), "{stderr}");
    let mut followed = args.to_vec();
    followed.extend(["--method", "backtrack", "--format", "moves"]);
    success(&followed, dir.path());
    let (_, _, stderr) = run(
        &[
            "solve",
            "--size",
            "12",
            "--at",
            "5=c3",
            "--memory-budget",
            "1",
            "--solver",
            "cadical",
        ],
        dir.path(),
    );
    assert!(!stderr.contains("--method backtrack"), "{stderr}");
}

#[test]
fn solver_output_cut_in_a_number_is_said_to_be_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    success(&["encode", "--board", "3x4", "-o", "a.cnf"], dir.path());
    // "-21" cut to "-2", after 2 was given true.
    std::fs::write(dir.path().join("cut.out"), "s SATISFIABLE\nv 1 2 -3 -2").unwrap();
    refused(
        &["decode", "--cnf", "a.cnf", "cut.out"],
        dir.path(),
        "cut short",
    );
}

#[test]
fn count_cnf_refuses_clauses_other_than_the_ones_its_comments_describe() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("a.cnf");
    success(&["encode", "--board", "3x4", "-o", "a.cnf"], dir.path());
    let (count, _) = success(&["count", "--cnf", "a.cnf"], dir.path());
    assert_eq!(count.trim(), "16");
    let text = std::fs::read_to_string(&cnf).unwrap();
    let header = text.lines().find(|l| l.starts_with("p cnf ")).unwrap();
    let clauses: usize = header.split_whitespace().nth(3).unwrap().parse().unwrap();
    // A clause added, the header kept exact: the formula now has fewer tours.
    let added = text.replace(
        header,
        &header.replace(&format!(" {clauses}"), &format!(" {}", clauses + 1)),
    ) + "1 0\n";
    std::fs::write(dir.path().join("added.cnf"), added).unwrap();
    // The leaper's comment edited: the clauses are still the knight's.
    let camel = text.replace("c option leaper 1,2", "c option leaper 1,3");
    std::fs::write(dir.path().join("camel.cnf"), camel).unwrap();
    refused(
        &["count", "--cnf", "added.cnf"],
        dir.path(),
        &format!(
            "the header 'p cnf {} {}' is not the one knightsat writes for the problem its comments describe ('{header}')",
            header.split(' ').nth(2).unwrap(),
            clauses + 1
        ),
    );
    // Its header is not the camel's formula's, which is what is named.
    success(
        &["encode", "--board", "3x4", "--leaper", "1,3", "-o", "c.cnf"],
        dir.path(),
    );
    let camels = std::fs::read_to_string(dir.path().join("c.cnf")).unwrap();
    let camels_header = camels.lines().find(|l| l.starts_with("p cnf ")).unwrap();
    refused(
        &["count", "--cnf", "camel.cnf"],
        dir.path(),
        &format!(
            "the header '{header}' is not the one knightsat writes for the problem its comments describe ('{camels_header}')"
        ),
    );
    // A cube's CNF, units and all, is what knightsat writes.
    success(
        &[
            "cubes", "--board", "3x4", "--depth", "2", "--split", "split",
        ],
        dir.path(),
    );
    let (cube, _) = success(&["count", "--cnf", "split/cube-000001.cnf"], dir.path());
    assert!(cube.trim().parse::<u64>().is_ok(), "{cube}");
}

#[test]
fn a_whole_tour_given_as_a_puzzle_is_said_to_be_one() {
    let dir = tempfile::tempdir().unwrap();
    let (grid, _) = success(&["solve", "--size", "5"], dir.path());
    std::fs::write(dir.path().join("g.txt"), &grid).unwrap();
    let (solved, note) = success(&["solve", "--puzzle", "g.txt"], dir.path());
    assert_eq!(solved, grid);
    assert!(note.contains("every square is numbered"), "{note}");
    // Moves 1 and 13 swapped: no tour, and it says why.
    let swapped: String = grid
        .lines()
        .map(|line| {
            let mut cells: Vec<&str> = line.split_whitespace().collect();
            for cell in cells.iter_mut().skip(1) {
                *cell = match *cell {
                    "1" => "13",
                    "13" => "1",
                    other => other,
                };
            }
            cells.join(" ") + "\n"
        })
        .collect();
    std::fs::write(dir.path().join("bad.txt"), swapped).unwrap();
    let (code, stdout, stderr) = run(&["solve", "--puzzle", "bad.txt"], dir.path());
    assert_eq!(code, Some(20), "{stderr}");
    assert!(stdout.contains("no tour"), "{stdout}");
    assert!(stderr.contains("every square is numbered"), "{stderr}");
}

#[test]
fn a_file_given_to_sum_twice_is_said_to_be_named_twice() {
    let dir = tempfile::tempdir().unwrap();
    let cubes = crate::common::cli::stdout_of(&[
        "count", "--size", "5", "--depth", "3", "--cubes", "1-488",
    ]);
    std::fs::write(dir.path().join("a.txt"), &cubes).unwrap();
    let (code, out, _) = run(&["sum", "a.txt"], dir.path());
    assert_eq!((code, out.as_str()), (Some(0), "1728\n"));
    refused(
        &["sum", "a.txt", "a.txt"],
        dir.path(),
        "a.txt is named twice",
    );
    refused(
        &["sum", "a.txt", "./a.txt"],
        dir.path(),
        "a.txt and ./a.txt are one file",
    );
    refused(
        &["sum", "-", "-"],
        dir.path(),
        "standard input (-) is named twice",
    );
    std::os::unix::fs::symlink("a.txt", dir.path().join("b.txt")).unwrap();
    refused(
        &["sum", "b.txt", "a.txt"],
        dir.path(),
        "b.txt and a.txt are one file",
    );
}

/// A board past the time-indexed encoding (91x91: 8281 squares, over
/// 8192) is counted by `--method backtrack` in one search, which takes any
/// board; only its cubes need the encoding. The default route refuses such
/// a board at once, saying that no exact route reaches it (its frontier is
/// too wide, backtracking's tours too many, a sample's cubes need the
/// encoding), and every way out it and the others name works. (The
/// default's way out, `--method backtrack`, was refused alike.)
#[test]
fn a_board_past_the_encoding_is_counted_in_one_search_and_each_way_out_works() {
    let dir = tempfile::tempdir().unwrap();
    let runs_out = |args: &[&str]| {
        let (code, stdout, stderr) = run(args, dir.path());
        assert_eq!(code, Some(124), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(
            stderr.contains("the --timeout of 0.5 s ran out"),
            "{args:?}: {stderr}"
        );
    };
    for words in [
        "no exact route counts a board this large",
        "the frontier counter holds",
        "--sample numbers its cubes by that encoding too",
        "--method backtrack --limit N counts its first N tours",
    ] {
        refused(
            &["count", "--size", "91", "--timeout", "0.5"],
            dir.path(),
            words,
        );
    }
    refused(
        &["count", "--size", "91", "--sample", "4"],
        dir.path(),
        "nothing samples a board this large; --method backtrack --limit N",
    );
    refused(
        &[
            "count",
            "--size",
            "91",
            "--method",
            "backtrack",
            "--jobs",
            "2",
        ],
        dir.path(),
        "without --jobs and --depth it counts in one search, on any board",
    );
    refused(
        &["count", "--size", "91", "--method", "sat", "--depth", "2"],
        dir.path(),
        "--method backtrack without --jobs and --depth counts without a formula",
    );
    runs_out(&[
        "count",
        "--size",
        "91",
        "--method",
        "backtrack",
        "--timeout",
        "0.5",
    ]);
    let (code, stdout, stderr) = run(
        &[
            "count",
            "--size",
            "91",
            "--method",
            "backtrack",
            "--limit",
            "2",
        ],
        dir.path(),
    );
    assert_eq!((code, stdout.as_str()), (Some(0), "2\n"), "{stderr}");
}

/// Runs the binary through bash with `shell` after its arguments (a
/// redirection, a limit): the status and stderr.
fn in_bash(args: &str, before: &str, after: &str) -> (Option<i32>, String) {
    let binary = env!("CARGO_BIN_EXE_knightsat");
    let output = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("{before} '{binary}' {args} {after}"))
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_closed_standard_output_is_an_error_not_a_lost_answer() {
    for args in [
        "count --size 5",
        "solve --size 5",
        "encode --size 5",
        "--help",
    ] {
        let (code, stderr) = in_bash(args, "", ">&-");
        assert_eq!(code, Some(1), "{args}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args}: {stderr}");
        assert!(
            stderr.contains("standard output is closed"),
            "{args}: {stderr}"
        );
    }
    // Output that goes nowhere on purpose, or to a file, is no error.
    assert_eq!(in_bash("count --size 5", "", "> /dev/null").0, Some(0));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.cnf");
    let (code, stderr) = in_bash(
        &format!("encode --size 5 -o '{}'", file.display()),
        "",
        ">&-",
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(file.exists());
}

#[test]
fn a_memory_budget_over_the_address_space_limit_is_refused_in_one_line() {
    let (code, stderr) = in_bash(
        "count --size 7 --method frontier --memory-budget 4000",
        "ulimit -v 400000;",
        "",
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("--memory-budget 4000") && stderr.contains("ulimit -v"),
        "{stderr}"
    );
    // Within half the limit it stands, and the default keeps under it.
    let (code, stderr) = in_bash(
        "count --size 5 --memory-budget 100",
        "ulimit -v 400000;",
        "",
    );
    assert_eq!(code, Some(0), "{stderr}");
    let (code, stderr) = in_bash("count --size 5", "ulimit -v 400000;", "");
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn certify_refuses_standard_input_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    refused(
        &["certify", "--cnf", "-", "--proof", "p.drat"],
        dir.path(),
        "certify reads files, not standard input: give --cnf a file",
    );
    refused(
        &["certify", "--cnf", "f.cnf", "--proof", "-"],
        dir.path(),
        "give --proof a file",
    );
}

#[test]
fn a_hole_named_twice_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["count", "--size", "5", "--holes", "c3,c3"][..],
        &["solve", "--size", "6", "--holes", "a1", "--holes", "a1"][..],
    ] {
        refused(args, dir.path(), "is named twice among the holes");
    }
}

#[test]
fn a_board_too_wide_for_every_route_says_so_and_what_is_left() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["count", "--board", "12x14"][..],
        &["count", "--size", "12", "--closed"][..],
        &["count", "--board", "20x200"][..],
    ] {
        refused(args, dir.path(), "no route counts a board this wide");
        refused(args, dir.path(), "--sample K --depth D estimates the count");
    }
    // Past the time-indexed encoding's 8192 squares nothing samples: what
    // is left is named, and works.
    let wide = ["count", "--board", "90x92"];
    refused(&wide, dir.path(), "no route counts a board this wide");
    refused(
        &wide,
        dir.path(),
        "--method backtrack --limit N counts its first N tours",
    );
    let (_, _, stderr) = run(&wide, dir.path());
    assert!(!stderr.contains("--sample"), "{stderr}");
    let (code, stdout, stderr) = run(
        &[
            "count",
            "--board",
            "90x92",
            "--method",
            "backtrack",
            "--limit",
            "1",
        ],
        dir.path(),
    );
    assert_eq!((code, stdout.trim()), (Some(0), "1"), "{stderr}");
    // A sample cut short by the time limit has no estimate, and says so.
    let (code, stdout, stderr) = run(
        &[
            "count",
            "--board",
            "12x14",
            "--sample",
            "2",
            "--timeout",
            "0.5",
        ],
        dir.path(),
    );
    assert_eq!(code, Some(124), "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains("ran out before the sample's cubes were counted: no estimate"),
        "{stderr}"
    );
}

#[test]
fn certify_without_rate_names_how_to_install_it() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("4x4.cnf");
    knightsat()
        .args(["encode", "--size", "4", "-o"])
        .arg(&cnf)
        .assert()
        .success();
    std::fs::write(dir.path().join("4x4.drat"), "0\n").unwrap();
    let empty = tempfile::tempdir().unwrap();
    let output = knightsat()
        .args(["certify", "--cnf", "4x4.cnf", "--proof", "4x4.drat"])
        .current_dir(dir.path())
        .env("PATH", empty.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cargo install rate@0.3.0"), "{stderr}");
    // A proof checker, not a solver.
    assert!(
        stderr.contains("cannot run the DRAT proof checker 'rate'"),
        "{stderr}"
    );
}

#[test]
fn no_tour_exits_20() {
    for args in [
        &["solve", "--size", "4", "--no-theory"][..],
        &["solve", "--size", "5", "--closed", "--no-theory"],
        &[
            "solve",
            "--board",
            "3x3",
            "--max-clause-len",
            "3",
            "--no-theory",
        ],
    ] {
        knightsat()
            .args(args)
            .assert()
            .code(20)
            .stdout("no tour exists for these constraints\n");
    }
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let bin = assert_cmd::cargo::cargo_bin("knightsat");
    let script = format!(
        "'{}' encode --size 12 | head -c 100 > /dev/null; echo ${{PIPESTATUS[0]}}",
        bin.display()
    );
    let output = std::process::Command::new("bash")
        .args(["-c", &script])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "0");
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

#[test]
fn decode_rejects_bad_models_with_one_line() {
    let cnf = fixture("golden/3x4-open.cnf");
    let minisat = std::fs::read_to_string(fixture("solver-output/3x4-open.minisat.out")).unwrap();
    let kissat = std::fs::read_to_string(fixture("solver-output/3x4-open.kissat.out")).unwrap();
    let literals: Vec<i64> = minisat
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .map(|l| l.parse().unwrap())
        .collect();
    let model_text = |lits: &[i64]| {
        format!(
            "SAT\n{}\n",
            lits.iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        )
    };

    // Truncated: the kissat output cut in the middle of the v lines.
    let cut = &kissat[..kissat.rfind("\nv ").unwrap()];
    decode_text(&cnf, cut)
        .code(2)
        .stderr(predicate::str::contains("truncated"));
    // Garbage.
    decode_text(&cnf, "hello world\n")
        .code(2)
        .stderr(predicate::str::contains("not a literal"));
    decode_text(&cnf, "")
        .code(2)
        .stderr(predicate::str::contains("no answer"));

    // Step 0 on no square: the true x(0, ·) literal made false.
    let mut nowhere = literals.clone();
    let first_true = nowhere.iter().position(|&l| l > 0 && l <= 12).unwrap();
    nowhere[first_true] = -nowhere[first_true];
    decode_text(&cnf, &model_text(&nowhere))
        .code(2)
        .stderr(predicate::str::contains(
            "after 0 moves the knight is on no square",
        ));

    // Two squares of a real tour swapped: a sequence of squares, but not
    // knight moves. The naive encoding prunes nothing, so every x(t, s) is read.
    let dir = tempfile::tempdir().unwrap();
    let naive = dir.path().join("naive.cnf");
    knightsat()
        .args(["encode", "--board", "3x4", "--preset", "naive", "-o"])
        .arg(&naive)
        .assert()
        .success();
    let moves = stdout_of(&[
        "solve", "--board", "3x4", "--method", "sat", "--format", "moves",
    ]);
    let mut tour = parse_moves(&moves, 4);
    tour.swap(2, 3);
    let n = 12;
    let lits: Vec<i64> = (0..n)
        .flat_map(|t| (0..n).map(move |s| (t, s)))
        .map(|(t, s)| {
            let var = (1 + t * n + s) as i64;
            if tour[t] == s {
                var
            } else {
                -var
            }
        })
        .chain([0])
        .collect();
    decode_text(&naive, &model_text(&lits))
        .code(2)
        .stderr(predicate::str::contains(
            "the model is not a tour: move 2 to 3, b1 to c2, is not a knight move",
        ));

    // A model for another board: the 3x4 answer given with the 3x3 CNF.
    knightsat()
        .args(["decode", "--cnf"])
        .arg(fixture("golden/3x3-open.cnf"))
        .arg(fixture("solver-output/3x4-open.kissat.out"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("another CNF"));
}

#[test]
fn decode_needs_a_knightsat_cnf() {
    let dir = tempfile::tempdir().unwrap();
    let bare = dir.path().join("bare.cnf");
    let golden = std::fs::read_to_string(fixture("golden/3x4-open.cnf")).unwrap();
    let body: String = golden
        .lines()
        .filter(|l| !l.starts_with('c'))
        .flat_map(|l| [l, "\n"])
        .collect();
    std::fs::write(&bare, body).unwrap();
    knightsat()
        .args(["decode", "--cnf"])
        .arg(&bare)
        .arg(fixture("solver-output/3x4-open.kissat.out"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a knightsat CNF"));
    knightsat()
        .args(["decode", "--cnf", "/no/such/file.cnf", "-"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read /no/such/file.cnf"));
    // The iCNF of `cubes -o` carries the comments too, above a header no
    // model answers: it is named for what it is, not said to lack them.
    let icnf = dir.path().join("cubes.icnf");
    knightsat()
        .args(["cubes", "--board", "3x4", "--depth", "2", "-o"])
        .arg(&icnf)
        .assert()
        .success();
    knightsat()
        .args(["decode", "--cnf"])
        .arg(&icnf)
        .arg(fixture("solver-output/3x4-open.kissat.out"))
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("an iCNF (p inccnf").and(
                predicate::str::contains("cubes --split")
                    .and(predicate::str::contains("comment lines that record board").not()),
            ),
        );
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    for args in [
        &["solve", "--board", "0x5"][..],
        &["solve", "--board", "8"],
        &["solve", "--board", "8x"],
        &["solve", "--size", "8", "--start", "z9"],
        &["solve", "--size", "8", "--start", "i1"],
        &["encode", "--size", "8", "--max-clause-len", "2"],
        &["encode", "--size", "0"],
        &["encode"],
        &["encode", "--size", "3", "--board", "3x3"],
        &["solve", "--size", "5", "--format", "xml"],
        &["solve", "--size", "5", "--amo", "ladder"],
        &["frobnicate"],
    ] {
        let output = knightsat().args(args).assert().code(2).get_output().clone();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("knightsat: "), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn warnsdorff_gives_up_with_exit_3_and_never_says_no_tour() {
    // 3x3 has no tour; Warnsdorff's rule cannot know that, and says so.
    let output = knightsat()
        .args([
            "solve",
            "--size",
            "3",
            "--method",
            "warnsdorff",
            "--no-theory",
        ])
        .assert()
        .code(3)
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("found no tour in 100 attempts"), "{stderr}");
    assert!(output.stdout.is_empty());
    // Backtracking proves it: exit 20.
    knightsat()
        .args([
            "solve",
            "--size",
            "3",
            "--method",
            "backtrack",
            "--no-theory",
        ])
        .assert()
        .code(20)
        .stdout("no tour exists for these constraints\n");
    knightsat()
        .args([
            "solve",
            "--size",
            "5",
            "--closed",
            "--holes",
            "a1,e5",
            "--method",
            "backtrack",
        ])
        .assert()
        .code(20);
    knightsat()
        .args(["solve", "--help"])
        .assert()
        .stdout(predicate::str::contains("3   --method warnsdorff gave up"));
}

#[test]
fn a_block_schedule_or_corridor_gives_up_rather_than_say_no_tour_and_never_counts() {
    // 6x6 has open tours from a1, none of them in 3x3 blocks one after
    // another: that says nothing about the board, so not "no tour" (exit
    // 20, as it once did) but exit 3.
    let output = knightsat()
        .args(["solve", "--size", "6", "--start", "a1", "--blocks", "3x3"])
        .assert()
        .code(3)
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        stderr,
        "knightsat: no tour keeps to the block schedule 3x3, which does not mean that none exists\n"
    );
    assert!(output.stdout.is_empty());
    knightsat()
        .args(["solve", "--size", "6", "--start", "a1"])
        .assert()
        .success();
    // Clues two moves apart on squares three moves apart have no tour at
    // all; past the gate (--no-theory), a corridor still only gives up.
    for (args, code) in [
        (&["--corridor", "0"][..], 3),
        (&["--method", "sat"][..], 20),
    ] {
        knightsat()
            .args([
                "solve",
                "--size",
                "6",
                "--at",
                "1=a1",
                "--at",
                "3=f6",
                "--no-theory",
            ])
            .args(args)
            .assert()
            .code(code);
    }
    common::cli::refused(
        &[
            "solve",
            "--size",
            "6",
            "--encoding",
            "successor",
            "--corridor",
            "4",
        ],
        std::path::Path::new("."),
        "--corridor",
    );
    // Counting or listing them, or proving there is none, is refused: 5x5
    // has 1728 tours, and its count with --blocks 1x2 was once 0.
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("none.drat");
    let proof = proof.to_str().unwrap();
    for args in [
        &["count", "--size", "5", "--blocks", "1x2"][..],
        &["count", "--size", "5", "--at", "1=a1", "--corridor", "4"],
        &["solve", "--size", "5", "--blocks", "1x2", "--all"],
        &[
            "solve", "--size", "5", "--start", "a1", "--blocks", "1x2", "--proof", proof,
        ],
    ] {
        common::cli::refused(args, dir.path(), "keep only some tours");
    }
    assert!(!dir.path().join("none.drat").exists());
    let cnf = dir.path().join("blocks.cnf");
    let cnf = cnf.to_str().unwrap();
    knightsat()
        .args(["encode", "--size", "5", "--blocks", "1x2", "-o", cnf])
        .assert()
        .success();
    common::cli::refused(&["count", "--cnf", cnf], dir.path(), "keep only some tours");
}

#[test]
fn warnsdorff_tours_a_million_squares_and_sat_refuses_them_in_one_line() {
    let moves = stdout_of(&[
        "solve",
        "--size",
        "1000",
        "--method",
        "warnsdorff",
        "--format",
        "moves",
    ]);
    assert_eq!(moves.split_whitespace().count(), 1_000_000);
    let output = knightsat()
        .args(["solve", "--size", "1000", "--method", "sat"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("at most 8192 squares"), "{stderr}");
    // The refusal names the routes that take the board.
    assert!(stderr.contains("--encoding successor"), "{stderr}");
    assert!(stderr.contains("--method warnsdorff"), "{stderr}");
}

#[test]
#[allow(clippy::too_many_lines, reason = "a table of cases, one per refusal")]
fn methods_refuse_what_they_cannot_do_in_one_line_with_exit_2() {
    for (args, words) in [
        (
            &[
                "solve",
                "--size",
                "5",
                "--method",
                "warnsdorff",
                "--proof",
                "p.drat",
            ][..],
            "--proof needs --method sat",
        ),
        (
            &[
                "solve",
                "--size",
                "5",
                "--method",
                "backtrack",
                "--proof",
                "p.drat",
            ],
            "--proof needs --method sat",
        ),
        (
            &[
                "solve",
                "--size",
                "5",
                "--method",
                "warnsdorff",
                "--at",
                "3=c3",
            ],
            "does not take clues",
        ),
        (
            &["solve", "--size", "5", "--method", "warnsdorff", "--all"],
            "finds one tour",
        ),
        (
            &["count", "--size", "5", "--method", "warnsdorff"],
            "finds one tour",
        ),
        (
            &[
                "solve",
                "--size",
                "5",
                "--method",
                "warnsdorff",
                "--solver",
                "kissat",
            ],
            "--solver is for --method sat",
        ),
        (
            &[
                "solve",
                "--size",
                "5",
                "--method",
                "backtrack",
                "--solver",
                "minisat",
            ],
            "--solver is for --method sat",
        ),
        (
            &[
                "solve",
                "--size",
                "5",
                "--method",
                "backtrack",
                "--amo",
                "pairwise",
            ],
            "are for --method sat",
        ),
        (
            &[
                "count",
                "--size",
                "5",
                "--method",
                "backtrack",
                "--no-parity",
            ],
            "are for --method sat",
        ),
        (
            &["solve", "--size", "5", "--method", "sat", "--seed", "3"],
            "--seed is for --method warnsdorff",
        ),
        (
            &[
                "solve",
                "--size",
                "5",
                "--method",
                "backtrack",
                "--seed",
                "3",
            ],
            "--seed is for --method warnsdorff",
        ),
        (
            &["count", "--size", "100", "--method", "sat"],
            "at most 8192 squares",
        ),
        (
            &["encode", "--size", "91", "--encoding", "time-indexed"],
            "at most 8192 squares",
        ),
        (
            &["stats", "--size", "91", "--encoding", "time-indexed"],
            "--encoding successor takes larger boards",
        ),
    ] {
        let output = knightsat().args(args).assert().code(2).get_output().clone();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("knightsat: "), "{args:?}: {stderr}");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
    }
}

#[test]
fn a_proof_and_its_cnf_cannot_share_a_name() {
    let dir = tempfile::tempdir().unwrap();
    refused(
        &[
            "solve",
            "--size",
            "4",
            "--no-theory",
            "--proof",
            "same.x",
            "--cnf-out",
            "./same.x",
        ],
        dir.path(),
        "--cnf-out both name",
    );
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn a_solver_that_floods_stderr_is_reported_by_its_last_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("noisy.sh");
    std::fs::write(
        &path,
        "#!/bin/sh\nyes 'noise noise noise noise' | head -c 50000000 >&2\necho 'the real reason' >&2\nexit 3\n",
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (code, _, stderr) = run(
        &["solve", "--size", "5", "--solver", path.to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("the real reason"), "{stderr}");
}

#[test]
fn inputs_that_used_to_crash_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("t6.cnf");
    let written = knightsat()
        .args(["encode", "--size", "6", "-o"])
        .arg(&cnf)
        .output()
        .unwrap();
    assert!(written.status.success());
    for literal in [
        "1000000000000",
        "4294967295",
        "9223372036854775807",
        "-9223372036854775808",
        "2147483647",
    ] {
        let output = dir.path().join("out.txt");
        std::fs::write(&output, format!("s SATISFIABLE\nv 1 {literal} 0\n")).unwrap();
        refused(
            &["decode", "--cnf", "t6.cnf", "out.txt"],
            dir.path(),
            "is the output for another CNF",
        );
    }
    refused(
        &["decode", "--cnf", "/dev/zero", "t6.cnf"],
        dir.path(),
        "not a knightsat CNF",
    );
    refused(
        &["solve", "--size", "6", "--timeout", "1e20"],
        dir.path(),
        "--timeout",
    );
    refused(
        &["solve", "--board", "3x4", "--all", "--limit", "0"],
        dir.path(),
        "--limit",
    );
    refused(
        &["count", "--size", "3", "--limit", "0"],
        dir.path(),
        "--limit",
    );
    refused(
        &["certify", "--cnf", "t6.cnf", "--proof", "/dev/zero"],
        dir.path(),
        "not a regular file",
    );
    refused(
        &["certify", "--cnf", "t6.cnf", "--proof", "."],
        dir.path(),
        "directory",
    );
    for huge in ["100000000000", "18446744073709551615"] {
        let (code, _, stderr) = run(
            &["solve", "--size", "5", "--max-clause-len", huge],
            dir.path(),
        );
        assert_eq!(code, Some(0), "{huge}: {stderr}");
    }
    let (code, _, _) = run(&["solve", "--size", " 5 "], dir.path());
    assert_eq!(code, Some(0), "--size trims like --board");
    // Control characters and long tokens are escaped and shortened.
    let weird = format!("a\u{1b}[31m{}", "x".repeat(10_000));
    let (code, _, stderr) = run(&["solve", "--size", "5", "--start", &weird], dir.path());
    assert_eq!(code, Some(2));
    assert!(!stderr.contains('\u{1b}') && stderr.len() < 300, "{stderr}");
    // So are the cells of a board file.
    for cell in ['\u{1b}', '\t', '\u{200b}'] {
        std::fs::write(dir.path().join("odd.txt"), format!(".{cell}...\n.....\n")).unwrap();
        let (code, _, stderr) = run(&["count", "--board-file", "odd.txt"], dir.path());
        assert_eq!(code, Some(2), "{cell:?}: {stderr}");
        assert!(
            stderr.contains(&cell.escape_default().to_string()) && !stderr.contains(cell),
            "{cell:?}: {stderr}"
        );
    }
}

#[test]
fn write_errors_on_stdout_are_one_line_and_a_closed_pipe_keeps_the_verdict() {
    for args in [
        &["count", "--size", "5"][..],
        &["verify", "--board", "3x4", "--at", "1=a1"][..],
        &["solve", "--size", "5"][..],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let output = Command::new(binary())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(full)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut output = output;
        output
            .stdin
            .take()
            .unwrap()
            .write_all(b"a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3")
            .unwrap();
        let output = output.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // Nobody reads: the exit status is still the verdict.
    for (board, code) in [("4", 20), ("5", 0)] {
        let mut child = Command::new(binary())
            .args(["solve", "--size", board, "--no-theory"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        assert_eq!(child.wait().unwrap().code(), Some(code), "{board}");
    }
}

#[test]
fn options_that_contradict_a_json_tour_or_puzzle_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let tour = common::cli::stdout_of(&["solve", "--size", "6", "--closed", "--format", "json"]);
    std::fs::write(dir.path().join("c6.json"), tour).unwrap();
    refused(
        &["verify", "--leaper", "0,1", "c6.json"],
        dir.path(),
        "wazir",
    );
    refused(&["verify", "--holes", "c3", "c6.json"], dir.path(), "holes");
    let (code, _, _) = run(&["verify", "--leaper", "1,2", "c6.json"], dir.path());
    assert_eq!(code, Some(0), "an option that agrees is fine");
    // What the JSON does not record applies.
    let (code, _, stderr) = run(&["verify", "--start", "b1", "c6.json"], dir.path());
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("starts on a1, not on b1"), "{stderr}");
    let puzzle =
        common::cli::stdout_of(&["puzzle", "--size", "5", "--seed", "1", "--format", "json"]);
    std::fs::write(dir.path().join("p5.json"), puzzle).unwrap();
    refused(
        &["solve", "--puzzle", "p5.json", "--leaper", "0,1"],
        dir.path(),
        "wazir",
    );
}

#[test]
fn a_model_of_a_tour_the_cnf_rules_out_is_named_in_the_users_terms() {
    // The closed 5x6 CNF fixes the start on a1 and breaks reversal: the
    // reverse of its own tour read from another square is ruled out.
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("c.cnf");
    knightsat()
        .args(["encode", "--board", "5x6", "--closed", "-o"])
        .arg(&cnf)
        .assert()
        .success();
    let moves =
        common::cli::stdout_of(&["solve", "--board", "5x6", "--closed", "--format", "moves"]);
    let board = knightsat::model::board::Board::new(5, 6).unwrap();
    let mut squares: Vec<usize> = moves
        .split_whitespace()
        .map(|name| board.parse_square(name).unwrap())
        .collect();
    squares.rotate_left(1);
    let n = squares.len();
    let literals: Vec<String> = squares
        .iter()
        .enumerate()
        .map(|(step, &square)| (1 + step * n + square).to_string())
        .collect();
    let model = format!("s SATISFIABLE\nv {} 0\n", literals.join(" "));
    std::fs::write(dir.path().join("model.txt"), model).unwrap();
    refused(
        &["decode", "--cnf", "c.cnf", "model.txt"],
        dir.path(),
        "which this CNF rules out",
    );
}

#[test]
fn sizes_that_cannot_work_are_refused_or_answered_at_once() {
    let dir = tempfile::tempdir().unwrap();
    // In-process solving of 90x90 by the time-indexed encoding would need
    // about 49 GB, past the default budget of any machine with less room
    // (the default is what the machine has; 64x64's 12.5 GB fits this
    // 24 GiB one): refused up front, with the estimate and the routes that
    // would work, in options the command takes.
    for args in [
        &["solve", "--size", "90", "--method", "sat"][..],
        &[
            "solve",
            "--size",
            "30",
            "--method",
            "sat",
            "--memory-budget",
            "50",
        ],
    ] {
        refused(args, dir.path(), "--memory-budget");
        let (_, _, stderr) = run(args, dir.path());
        for way_out in [
            "MiB",
            "--solver kissat",
            "--encoding successor",
            "--method warnsdorff",
        ] {
            assert!(stderr.contains(way_out), "{way_out}: {stderr}");
        }
        assert!(!stderr.contains("--jobs"), "no --jobs were given: {stderr}");
    }
    refused(
        &["count", "--size", "90", "--method", "sat"],
        dir.path(),
        "--memory-budget",
    );
    let (_, _, stderr) = run(&["count", "--size", "90", "--method", "sat"], dir.path());
    assert!(stderr.contains("--method backtrack"), "{stderr}");
    assert!(
        !stderr.contains("--solver"),
        "count takes no solver programs: {stderr}"
    );
    // The default route needs no such memory.
    let (code, _, stderr) = run(&["solve", "--size", "64"], dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    // The knight cannot move on 1x8192: the CNF is a few empty clauses.
    let stats = common::cli::stdout_of(&["stats", "--board", "1x8192", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(&stats).unwrap();
    assert_eq!(
        value["clauses"], 16_384,
        "one empty clause per step and per square"
    );
    assert_eq!(value["literals"], 0);
    // Theorems answer count and puzzle on boards they settle, at any size.
    assert_eq!(
        common::cli::stdout_of(&["count", "--board", "2x4096"]).trim(),
        "0"
    );
    let (code, _, _) = run(&["puzzle", "--board", "2x4096"], dir.path());
    assert_eq!(code, Some(20));
}

#[test]
fn constraints_that_contradict_each_other_are_bad_input_on_every_path() {
    // One rule: two squares for one move, or two moves on one square
    // (--start is move 1, --end move N), is bad input, exit 2, before any
    // search; constraints that agree but leave no tour are answered 20.
    let dir = tempfile::tempdir().unwrap();
    let contradictions: [&[&str]; 4] = [
        &["--at", "1=a1", "--at", "25=a1"],
        &["--start", "a1", "--end", "a1"],
        &["--start", "a1", "--at", "25=a1"],
        &["--end", "a1", "--at", "1=a1"],
    ];
    for constraints in contradictions {
        for command in [
            &["solve", "--size", "5"][..],
            &["solve", "--size", "5", "--method", "backtrack"],
            &["solve", "--size", "5", "--closed"],
            &["count", "--size", "5"],
            &["encode", "--size", "5"],
        ] {
            let args: Vec<&str> = command.iter().chain(constraints).copied().collect();
            refused(&args, dir.path(), "a1 has two move numbers, 1 and 25");
        }
    }
    refused(
        &["solve", "--size", "5", "--start", "a1", "--at", "1=b1"],
        dir.path(),
        "two squares for move 1: a1 and b1",
    );
    // Agreeing constraints with no tour (b1 is of the colour 5x5 has 12 of).
    for method in ["sat", "backtrack"] {
        let args = [
            "solve", "--size", "5", "--start", "a1", "--end", "b1", "--method", method,
        ];
        assert_eq!(run(&args, dir.path()).0, Some(20), "{args:?}");
    }
}

#[test]
fn count_cnf_refuses_the_options_the_file_decides() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(&["encode", "--size", "5", "-o", "f.cnf"], dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    let given: [&[&str]; 13] = [
        &["--start", "c3"],
        &["--size", "6"],
        &["--board", "5x6"],
        &["--closed"],
        &["--holes", "c3"],
        &["--at", "3=b3"],
        &["--end", "a1"],
        &["--leaper", "2,3"],
        &["--method", "backtrack"],
        &["--encoding", "successor"],
        &["--amo", "pairwise"],
        &["--no-parity"],
        &["--preset", "naive"],
    ];
    for options in given {
        let args: Vec<&str> = ["count", "--cnf", "f.cnf"]
            .iter()
            .chain(options)
            .copied()
            .collect();
        refused(&args, dir.path(), "cannot be used with");
    }
    let output = knightsat()
        .args(["count", "--cnf", "f.cnf"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "1728");
}

#[test]
fn time_limits_past_what_a_clock_counts_to_are_refused_not_a_panic() {
    // 1e19 s once passed the parser and panicked adding it to the clock.
    let dir = tempfile::tempdir().unwrap();
    let commands: [&[&str]; 5] = [
        &["solve", "--size", "5"],
        &["solve", "--size", "5", "--method", "warnsdorff"],
        &["count", "--size", "5"],
        &["puzzle", "--size", "5"],
        &[
            "solve",
            "--size",
            "3",
            "--proof",
            "p.drat",
            "--cnf-out",
            "p.cnf",
        ],
    ];
    for command in commands {
        for limit in ["1e19", "9.3e18", "5.81e11"] {
            let args = [command, &["--timeout", limit]].concat();
            refused(
                &args,
                dir.path(),
                "is not a number of seconds from 0.001 to 5.8e11",
            );
        }
        let args = [command, &["--timeout", "5.8e11"]].concat();
        let (code, _, stderr) = run(&args, dir.path());
        assert!(code == Some(0) || code == Some(20), "{args:?}: {stderr}");
    }
    assert_eq!(
        entries(dir.path()),
        ["p.cnf", "p.drat"],
        "the proof run's files alone"
    );
}

#[test]
fn time_limits_too_short_to_measure_are_refused_alike_by_every_method() {
    let dir = tempfile::tempdir().unwrap();
    for method in ["sat", "backtrack", "warnsdorff"] {
        for limit in ["1e-300", "1e-10", "0.0009", "0"] {
            refused(
                &[
                    "solve",
                    "--size",
                    "8",
                    "--method",
                    method,
                    "--timeout",
                    limit,
                ],
                dir.path(),
                "is not a number of seconds from 0.001",
            );
        }
    }
    // A millisecond is a limit: 20x20 by SAT takes seconds (8x8 took 15
    // ms, which a loaded machine's late watcher thread once let finish).
    let (code, _, stderr) = run(
        &[
            "solve",
            "--size",
            "20",
            "--method",
            "sat",
            "--timeout",
            "0.001",
        ],
        dir.path(),
    );
    assert_eq!(code, Some(124), "{stderr}");
    assert!(stderr.contains("no answer within 0.001 s"), "{stderr}");
}

#[test]
fn orbits_are_counted_by_one_solver_and_cubes_are_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    for extra in [&["--jobs", "2"][..], &["--jobs", "0"], &["--depth", "3"]] {
        let args: Vec<&str> = ["count", "--size", "5", "--up-to-symmetry"]
            .iter()
            .chain(extra)
            .copied()
            .collect();
        refused(
            &args,
            dir.path(),
            "--up-to-symmetry counts orbits with one solver, without cubes",
        );
    }
    // --jobs 1 is the default: one solver, the oracle's orbits.
    let output = knightsat()
        .args(["count", "--size", "5", "--up-to-symmetry", "--jobs", "1"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        common::count_orbits(5, 5, false, None).to_string()
    );
}

/// Runs kissat on `cnf` in `dir`, its output saved as `out`; whether it
/// found a model.
fn kissat_model(dir: &Path, cnf: &str, out: &str) -> bool {
    let output = Command::new("kissat")
        .arg(cnf)
        .current_dir(dir)
        .output()
        .unwrap();
    std::fs::write(dir.join(out), &output.stdout).unwrap();
    output.status.code() == Some(10)
}

#[test]
#[cfg_attr(not(has_kissat), ignore = "kissat is not installed")]
fn decode_refuses_a_model_of_another_cubes_cnf() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(
        &["cubes", "--size", "5", "--depth", "3", "--split", "S"],
        dir.path(),
    );
    assert_eq!(code, Some(0), "{stderr}");
    // The first satisfiable cube after cube 1 (cube 2 on 5x5).
    let sat = (2..40)
        .map(|i| format!("S/cube-{i:06}.cnf"))
        .find(|cnf| kissat_model(dir.path(), cnf, "model.out"))
        .unwrap();
    let (code, _, stderr) = run(&["decode", "--cnf", &sat, "model.out"], dir.path());
    assert_eq!(code, Some(0), "{sat}: {stderr}");
    // The same model with its false literals left out, as MiniSat may.
    let model = std::fs::read_to_string(dir.path().join("model.out")).unwrap();
    let positive: Vec<&str> = model
        .lines()
        .filter(|line| line.starts_with("v "))
        .flat_map(|line| line[2..].split_whitespace())
        .filter(|lit| !lit.starts_with('-'))
        .collect();
    let text = format!("s SATISFIABLE\nv {}\n", positive.join(" "));
    std::fs::write(dir.path().join("positive.out"), text).unwrap();
    let (code, _, stderr) = run(&["decode", "--cnf", &sat, "positive.out"], dir.path());
    assert_eq!(code, Some(0), "{sat}: {stderr}");
    // Either decodes to a tour of the same problem, outside cube 1.
    for model in ["model.out", "positive.out"] {
        for other in ["S/cube-000001.cnf", "S/cube-000040.cnf"] {
            refused(
                &["decode", "--cnf", other, model],
                dir.path(),
                "it is not a model of this CNF",
            );
        }
    }
}

#[test]
fn a_timed_out_list_of_every_tour_says_it_is_partial_for_every_method() {
    let dir = tempfile::tempdir().unwrap();
    for method in ["sat", "backtrack"] {
        // Listing every tour of 8x8 takes far longer than a second.
        let output = knightsat()
            .args(["solve", "--size", "8", "--all", "--format", "moves"])
            .args(["--method", method, "--timeout", "1"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(124), "{method}: {stderr}");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let tours: Vec<Vec<usize>> = stdout
            .lines()
            .map(|line| {
                let board = knightsat::model::board::Board::new(8, 8).unwrap();
                line.split_whitespace()
                    .map(|name| board.parse_square(name).unwrap())
                    .collect()
            })
            .collect();
        assert!(!tours.is_empty(), "{method}: tours found before the limit");
        assert!(tours.iter().all(|t| common::is_tour(8, 8, false, t)));
        assert_eq!(stderr.lines().count(), 1, "{method}: {stderr}");
        let said = format!(
            "the --timeout of 1 s ran out after {} tours: the tours printed are a partial list",
            tours.len()
        );
        assert!(stderr.contains(&said), "{method}: {stderr}");
    }
}

/// `sum` of `text` on stdin: exit code, stdout, stderr.
fn sum_of_stdin(text: &str) -> (Option<i32>, String, String) {
    common::cli::outcome(
        &knightsat()
            .arg("sum")
            .write_stdin(text.as_bytes().to_vec())
            .output()
            .unwrap(),
    )
}

#[test]
fn sum_refuses_a_cut_line_squares_of_no_cube_and_two_problems_mixed() {
    let task = ["count", "--size", "5", "--depth", "3", "--cubes"];
    let all = common::cli::stdout_of(&[&task[..], &["1-488"]].concat());
    assert_eq!(sum_of_stdin(&all).1, "1728\n");
    let refused_sum = |text: &str, words: &str| {
        let (code, stdout, stderr) = sum_of_stdin(text);
        assert_eq!(code, Some(2), "{words}: {stderr}");
        assert!(stdout.is_empty(), "{words}: {stdout}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(words), "{words}: {stderr}");
        assert!(stderr.contains("stdin line"), "{stderr}");
    };
    let (header, lines) = all.split_once('\n').unwrap();
    // The issue's case: the first line dropped, a cut line at the end.
    let mut cut = lines.to_string();
    cut.push_str("cube 1/488\t12");
    refused_sum(&cut, "no header line");
    let mut cut = all.clone();
    cut.push_str("cube 1/488\t12");
    refused_sum(&cut, "line 490 ends without a newline");
    // A count of =10 cut to =1: not a whole line.
    let line_of = |number: usize| {
        lines
            .lines()
            .find(|line| line.starts_with(&format!("cube {number}/")))
            .unwrap()
    };
    let without = |number: usize| {
        let mut text = format!("{header}\n");
        for line in lines.lines().filter(|line| *line != line_of(number)) {
            text.push_str(line);
            text.push('\n');
        }
        text
    };
    let same_as_ten = (11..=488)
        .find(|&n| line_of(n).split('\t').nth(1) == Some("=10"))
        .unwrap();
    let cut = without(same_as_ten) + &format!("cube {same_as_ten}/488\t=1");
    refused_sum(&cut, "ends without a newline");
    let cut = without(same_as_ten) + &format!("cube {same_as_ten}/488\t=1\n");
    refused_sum(&cut, "is not a cube's count");
    // Squares that are no cube's, or another cube's.
    let line = line_of(2);
    let fingerprint = line.rsplit('\t').next().unwrap();
    for squares in ["z9 z9 z9 z9", "a1 c2 e1 d3"] {
        let wrong = without(2) + &format!("cube 2/488\t4\t{squares}\t{fingerprint}\n");
        refused_sum(&wrong, "gives cube 2 other squares than the cube's own");
    }
    // Halves of two problems with the same number of cubes.
    let half = |anchors: &[&str], range: &str| {
        let args = [
            &["count", "--size", "5", "--depth", "3"][..],
            anchors,
            &["--cubes", range],
        ]
        .concat();
        common::cli::stdout_of(&args)
    };
    let from_a1 = half(&["--start", "a1"], "1-13");
    let to_c3 = half(&["--start", "a1", "--end", "c3"], "14-26");
    let whole_from_a1 = from_a1.clone() + &half(&["--start", "a1"], "14-26");
    assert_eq!(sum_of_stdin(&whole_from_a1).1, "304\n");
    refused_sum(&(from_a1.clone() + &to_c3), "another problem");
    let (_, to_c3_lines) = to_c3.split_once('\n').unwrap();
    refused_sum(&(from_a1 + to_c3_lines), "another problem");
    // Depths and methods are told apart too.
    let sat = common::cli::stdout_of(&[&task[..], &["1-2", "--method", "sat"]].concat());
    refused_sum(&(sat + lines), "another problem");
}

#[test]
fn the_gate_says_one_step_and_three_steps() {
    let reason = |size: &str, clues: &[&str]| {
        let mut args = vec!["solve", "--size", size];
        for clue in clues {
            args.extend(["--at", clue]);
        }
        let output = knightsat().args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(20), "{clues:?}");
        String::from_utf8(output.stderr).unwrap()
    };
    let one = reason("5", &["1=a1", "2=b1"]);
    assert!(one.contains("are 1 step apart along the tour"), "{one}");
    let three = reason("8", &["1=a1", "4=h7"]);
    assert!(
        three.contains("are 3 steps apart along the tour"),
        "{three}"
    );
}

#[test]
fn the_default_memory_budget_stays_within_the_address_space_limit() {
    use std::os::unix::process::CommandExt;
    const LIMIT: libc::rlim_t = 400 << 20;
    let mut command = Command::new(binary());
    command
        .args(["count", "--size", "7", "--method", "frontier"])
        // The default order would count by rows after the refusal, for
        // minutes, keeping its states on disk.
        .args(["--frontier-order", "meet"])
        .env("RUST_BACKTRACE", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe and touches only the child.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: LIMIT,
                rlim_max: LIMIT,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &raw const limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let output = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    // A third of the 400 MiB: a refusal in one line, not an allocation
    // failure (which aborted at the default 4096 MiB, exit 134, with a
    // backtrace, and ran out of address space at a half, 200).
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // What it could keep on disk it did (7x7 open's forward tables), and
    // the refusal says so.
    assert!(
        stderr.contains("over the budget of 133 MiB, besides ")
            && stderr.contains(" MiB kept on disk, held in memory at the cut where the halves meet (--memory-budget)"),
        "{stderr}"
    );
}

/// An output named by a directory (`encode -o DIR`, `cubes -o DIR`,
/// `solve --proof DIR`, `--cnf-out DIR`) is a bad argument: one line, exit 2
/// (it was exit 1, after the work, for `encode`), and nothing is written
/// into the directory.
#[test]
fn an_output_that_is_a_directory_is_refused_as_a_bad_argument() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let out = out.to_str().unwrap();
    for (args, flag) in [
        (vec!["encode", "--size", "5", "-o", out], "--output"),
        (
            vec!["cubes", "--size", "5", "--depth", "2", "--output", out],
            "--output",
        ),
        (vec!["solve", "--size", "5", "--proof", out], "--proof"),
        (
            vec![
                "solve",
                "--size",
                "5",
                "--proof",
                "p.drat",
                "--cnf-out",
                out,
            ],
            "--cnf-out",
        ),
    ] {
        refused(&args, dir.path(), &format!("{flag} {out} is a directory"));
        assert!(
            std::fs::read_dir(out).unwrap().next().is_none(),
            "{args:?} wrote into the directory"
        );
    }
    // And a file where a directory is wanted.
    std::fs::write(dir.path().join("tour.cnf"), "kept").unwrap();
    let split = [
        "cubes", "--size", "5", "--depth", "2", "--split", "tour.cnf",
    ];
    refused(&split, dir.path(), "--split tour.cnf is not a directory");
    let kept = std::fs::read_to_string(dir.path().join("tour.cnf")).unwrap();
    assert_eq!(kept, "kept");
}

#[test]
fn a_sat_count_out_of_time_before_its_first_tour_names_the_default_route_where_it_counts_the_board()
{
    let dir = tempfile::tempdir().unwrap();
    // The frontier counter holds six files; backtracking takes any board;
    // 30x30's frontier is wider than any state holds, so no route is named.
    for (board, closed, route) in [
        ("6x60", true, Some("the frontier counter")),
        ("20x20", false, Some("backtracking")),
        ("30x30", true, None),
    ] {
        let mut args = vec![
            "count",
            "--board",
            board,
            "--method",
            "sat",
            "--timeout",
            "0.05",
        ];
        if closed {
            args.push("--closed");
        }
        let (code, _, stderr) = run(&args, dir.path());
        assert_eq!(code, Some(124), "{board}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{board}: {stderr}");
        assert!(
            stderr.starts_with("knightsat: no answer within 0.05 s; "),
            "{board}: {stderr}"
        );
        match route {
            Some(route) => assert!(
                stderr.contains(&format!(
                    "the default route counts these tours by {route}, faster"
                )),
                "{board}: {stderr}"
            ),
            None => assert!(
                stderr.ends_with("try a longer --timeout\n"),
                "{board}: {stderr}"
            ),
        }
    }
}

/// A negative number is a bad value of its option, not an unknown option
/// (a new user's `--size -3`).
#[test]
fn a_negative_number_is_a_bad_value_of_its_option() {
    let dir = tempfile::tempdir().unwrap();
    for (args, option) in [
        (&["solve", "--size", "-3"][..], "--size"),
        (&["solve", "--size", "5", "--timeout", "-1"], "--timeout"),
        (&["count", "--size", "5", "--limit", "-2"], "--limit"),
    ] {
        let value = args[args.len() - 1];
        refused(
            args,
            dir.path(),
            &format!("invalid value '{value}' for '{option}"),
        );
    }
}

/// An option of other commands given to one that lacks it names the
/// commands that take it, not clap's tip of passing it as a file's name.
#[test]
fn an_option_of_other_commands_names_them() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["verify", "--timeout", "1"];
    refused(&args, dir.path(), "--timeout is an option of solve");
    let (_, _, stderr) = run(&args, dir.path());
    assert!(!stderr.contains("-- --timeout"), "{stderr}");
}

/// A count in parts of a clued board is refused for what `--part` is
/// (the user named no method), and a `--spill-dir` that is missing or a
/// file is refused before any work, not when the count first spills (an
/// 8x8 count by rows would run far past the time limit first).
#[test]
fn clues_in_parts_and_a_spill_dir_that_is_not_a_directory_are_refused_in_their_own_words() {
    let dir = tempfile::tempdir().unwrap();
    let words =
        "--part splits the frontier counter's states, and the frontier counter does not take clues";
    refused(
        &["count", "--size", "3", "--part", "1/3", "--at", "1=a1"],
        dir.path(),
        words,
    );
    refused(
        &[
            "count",
            "--size",
            "5",
            "--part",
            "2/4",
            "--part-by",
            "ends",
            "--at",
            "25=e5",
        ],
        dir.path(),
        words,
    );
    File::create(dir.path().join("a-file")).unwrap();
    for (spill, words) in [
        ("missing", "--spill-dir missing does not exist"),
        ("a-file", "--spill-dir a-file is not a directory"),
    ] {
        refused(
            &[
                "count",
                "--size",
                "8",
                "--method",
                "frontier",
                "--frontier-order",
                "rows",
                "--memory-budget",
                "1",
                "--timeout",
                "20",
                "--spill-dir",
                spill,
            ],
            dir.path(),
            words,
        );
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn no_tour_in_json_is_json_and_in_svg_is_no_picture() {
    let dir = tempfile::tempdir().unwrap();
    // By the gate (3x3), by SAT (3x4 from b2), for --all, and below by
    // decode of a solver's "UNSATISFIABLE".
    let cases: [&[&str]; 3] = [
        &["solve", "--size", "3"],
        &[
            "solve", "--board", "3x4", "--start", "b2", "--method", "sat",
        ],
        &["solve", "--size", "3", "--closed", "--all"],
    ];
    for args in cases {
        let json_args = [args, &["--format", "json"]].concat();
        let (code, stdout, stderr) = run(&json_args, dir.path());
        assert_eq!(code, Some(20), "{args:?}: {stderr}");
        let value: serde_json::Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {stdout}"));
        assert!(value["tour"].is_null(), "{args:?}: {stdout}");
        assert_eq!(value["rows"], 3, "{args:?}: {stdout}");
        assert!(value["closed"].is_boolean(), "{args:?}: {stdout}");
        assert!(stderr.contains("no tour exists"), "{args:?}: {stderr}");
        if !args.contains(&"--all") {
            // (--all lists no pictures.)
            let svg_args = [args, &["--format", "svg"]].concat();
            let (code, stdout, stderr) = run(&svg_args, dir.path());
            assert_eq!(code, Some(20), "{args:?}: {stderr}");
            assert_eq!(stdout, "", "{args:?}: no picture");
            assert!(stderr.contains("no tour exists"), "{args:?}: {stderr}");
        }
        // The text formats keep the words on stdout.
        let (code, stdout, _) = run(args, dir.path());
        assert_eq!(code, Some(20), "{args:?}");
        assert_eq!(stdout, "no tour exists for these constraints\n", "{args:?}");
    }
    // A board with no tour has no puzzle either.
    let (code, stdout, stderr) = run(&["puzzle", "--size", "4", "--format", "json"], dir.path());
    assert_eq!(code, Some(20), "{stderr}");
    let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(value["tour"].is_null() && value["rows"] == 4, "{stdout}");
    let (code, stdout, stderr) = run(&["puzzle", "--size", "4", "--format", "svg"], dir.path());
    assert_eq!((code, stdout.as_str()), (Some(20), ""), "{stderr}");
    assert!(stderr.contains("no tour exists"), "{stderr}");
    let (code, _, stderr) = run(&["encode", "--size", "3", "-o", "t.cnf"], dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    std::fs::write(dir.path().join("unsat.txt"), "s UNSATISFIABLE\n").unwrap();
    let (code, stdout, stderr) = run(
        &["decode", "--cnf", "t.cnf", "unsat.txt", "--format", "json"],
        dir.path(),
    );
    assert_eq!(code, Some(20), "{stderr}");
    let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        (
            value["rows"].as_u64(),
            value["cols"].as_u64(),
            value["tour"].is_null()
        ),
        (Some(3), Some(3), true),
        "{stdout}"
    );
}

#[test]
fn a_corridor_needs_two_clues_to_run_between() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["solve", "--size", "8", "--corridor", "4"][..],
        &["solve", "--size", "8", "--corridor", "4", "--at", "5=c3"],
        &["encode", "--size", "8", "--corridor", "0", "-o", "c.cnf"],
    ] {
        let (code, stdout, stderr) = run(args, dir.path());
        assert_eq!(code, Some(2), "{args:?}: {stdout}{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains("--corridor"), "{args:?}: {stderr}");
        assert!(stderr.contains("make no pair"), "{args:?}: {stderr}");
    }
    assert!(!dir.path().join("c.cnf").exists(), "nothing written");
    // Two clues make a pair; and the default route, which races a
    // corridor on large clued boards, takes a board with one clue.
    let (code, _, stderr) = run(
        &[
            "solve",
            "--size",
            "8",
            "--corridor",
            "4",
            "--at",
            "1=a1",
            "--at",
            "12=f5",
            "--format",
            "moves",
        ],
        dir.path(),
    );
    assert_eq!(code, Some(0), "{stderr}");
    let (code, stdout, stderr) = run(
        &[
            "solve", "--size", "20", "--at", "100=c3", "--format", "json",
        ],
        dir.path(),
    );
    assert_eq!(code, Some(0), "{stderr}");
    let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(value["tour"][99], "c3", "{stdout}");
}

#[test]
fn the_default_routes_way_out_of_a_memory_budget_names_no_way_it_took() {
    // Warnsdorff's rule gives up on 3xN boards this long and the route
    // then builds the successor encoding: neither is a way out.
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(
        &["solve", "--board", "3x1398101", "--memory-budget", "64"],
        dir.path(),
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("over the budget of 64 MiB"), "{stderr}");
    assert!(!stderr.contains("--method warnsdorff"), "{stderr}");
    assert!(!stderr.contains("try --encoding successor"), "{stderr}");
    assert!(
        stderr.contains("--encoding successor --solver kissat"),
        "a solver program needs the route's encoding named: {stderr}"
    );
    // Named by hand, the time-indexed encoding's way out is the successor.
    let (code, _, stderr) = run(
        &[
            "solve",
            "--size",
            "40",
            "--method",
            "sat",
            "--memory-budget",
            "64",
        ],
        dir.path(),
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("try --encoding successor"), "{stderr}");
}

#[test]
fn a_memory_budget_past_what_bytes_count_is_no_budget_not_a_small_one() {
    // 2^44 MiB is 2^64 bytes: it once wrapped round to a budget of 0.
    let dir = tempfile::tempdir().unwrap();
    for budget in ["17592186044416", "35184372088832", "18446744073709551615"] {
        let (code, stdout, stderr) = run(
            &[
                "count",
                "--size",
                "5",
                "--jobs",
                "2",
                "--depth",
                "4",
                "--memory-budget",
                budget,
            ],
            dir.path(),
        );
        assert_eq!(
            (code, stdout.trim()),
            (Some(0), "1728"),
            "{budget}: {stderr}"
        );
        let (code, stdout, stderr) = run(
            &[
                "solve",
                "--size",
                "8",
                "--jobs",
                "2",
                "--memory-budget",
                budget,
                "--format",
                "moves",
            ],
            dir.path(),
        );
        assert_eq!(code, Some(0), "{budget}: {stderr}");
        assert!(
            common::is_tour(8, 8, false, &parse_moves(&stdout, 8)),
            "{stdout}"
        );
    }
}

/// A count of orbits cut short by its time limit says it counted orbits.
#[test]
fn a_count_of_orbits_cut_short_says_they_are_orbits() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(
        &["count", "--size", "6", "--up-to-symmetry", "--timeout", "1"],
        dir.path(),
    );
    assert_eq!(code, Some(124), "{stderr}");
    assert!(
        stderr.contains(" orbits (tours up to symmetry): there are at least "),
        "{stderr}"
    );
}

/// A JSON tour that visits one of its own board's holes is a tour that
/// breaks a rule (exit 1), as one with a move no knight makes is, not
/// unreadable input (exit 2); a name on no board is still unreadable.
#[test]
fn a_tour_onto_its_own_hole_is_refused_as_a_tour() {
    let dir = tempfile::tempdir().unwrap();
    let (code, json, _) = run(
        &[
            "solve", "--board", "5x5", "--holes", "c3", "--format", "json",
        ],
        dir.path(),
    );
    assert_eq!(code, Some(0));
    let first = json.split("\"tour\":[\"").nth(1).unwrap()[..2].to_string();
    let onto_hole = json.replacen(&format!("\"tour\":[\"{first}\""), "\"tour\":[\"c3\"", 1);
    std::fs::write(dir.path().join("hole.json"), &onto_hole).unwrap();
    let (code, _, stderr) = run(&["verify", "hole.json"], dir.path());
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("not a valid tour: square 1, c3, is a hole of the board"),
        "{stderr}"
    );
    std::fs::write(
        dir.path().join("far.json"),
        json.replacen(&format!("\"tour\":[\"{first}\""), "\"tour\":[\"z9\"", 1),
    )
    .unwrap();
    refused(&["verify", "far.json"], dir.path(), "z9 is not on the");
}

/// A directory named as the solver program is said to be one.
#[test]
fn a_directory_given_as_the_solver_is_said_to_be_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_str().unwrap().to_string();
    refused(
        &["solve", "--size", "5", "--solver", &path],
        dir.path(),
        "it is a directory, not a program",
    );
}

/// Input past its bound is refused as too large, in one rule: `sum` at a
/// line longer than any task prints, `verify` at a file past 256 MiB.
#[test]
fn input_past_its_bound_is_said_to_be_too_large() {
    let dir = tempfile::tempdir().unwrap();
    refused(
        &["sum", "/dev/full"],
        dir.path(),
        "cannot read /dev/full: line 1 is longer than 64 KiB",
    );
    let long = "a".repeat(100_000);
    std::fs::write(dir.path().join("long.txt"), &long).unwrap();
    refused(
        &["sum", "long.txt"],
        dir.path(),
        "cannot read long.txt: line 1 is longer than 64 KiB",
    );
    refused(
        &["verify", "--size", "5", "/dev/full"],
        dir.path(),
        "cannot read /dev/full: it is larger than 256 MiB",
    );
}

/// A negative leaper is a bad leaper, not an unknown option, and a board
/// of no squares is worded one way whether given by --size or --board.
#[test]
fn a_negative_leaper_and_an_empty_board_are_worded_as_their_values() {
    let dir = tempfile::tempdir().unwrap();
    for leaper in ["-1,2", "1,-2"] {
        refused(
            &["solve", "--size", "5", "--leaper", leaper],
            dir.path(),
            &format!("invalid value '{leaper}' for '--leaper <A,B>': bad leaper"),
        );
    }
    refused(
        &["solve", "--size", "0"],
        dir.path(),
        "invalid value '0' for '--size <N>': bad board: 0x0 has no squares: rows and columns must be at least 1",
    );
    refused(
        &["solve", "--board", "0x5"],
        dir.path(),
        "invalid value '0x5' for '--board <ROWSxCOLS>': bad board: 0x5 has no squares: rows and columns must be at least 1",
    );
}

/// A proof that cannot be written is said as every write failure is, by
/// both built-in solvers (`CaDiCaL`'s own writes used to fail unsaid, with
/// the proof reported written), and neither file is left.
#[test]
fn a_proof_that_cannot_be_written_is_said_as_every_write_failure() {
    let dir = tempfile::tempdir().unwrap();
    for solver in ["varisat", "cadical"] {
        let (code, _, stderr) = run(
            &[
                "solve",
                "--board",
                "4x4",
                "--proof",
                "/dev/full",
                "--cnf-out",
                "t.cnf",
                "--solver",
                solver,
            ],
            dir.path(),
        );
        assert_eq!(code, Some(1), "{solver}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("writing the proof: No space left on device"),
            "{solver}: {stderr}"
        );
        assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
    }
}

/// A fault in a CNF's clauses is named with its file by `decode` as by
/// `count --cnf` (decode once said only "cannot read the CNF's clauses"),
/// for an answer of satisfiable (`CaDiCaL`'s model of the CNF before it was
/// broken) and of unsatisfiable alike.
#[test]
#[cfg_attr(not(has_cadical), ignore = "cadical is not installed")]
fn decode_names_the_cnf_whose_clauses_it_cannot_read() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(&["encode", "--size", "5", "-o", "ok.cnf"], dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    let model = Command::new("cadical")
        .args(["-q", "ok.cnf"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(model.status.code(), Some(10), "5x5 open has tours");
    std::fs::write(dir.path().join("sat.out"), &model.stdout).unwrap();
    std::fs::write(dir.path().join("unsat.out"), "s UNSATISFIABLE\n").unwrap();
    let text = std::fs::read_to_string(dir.path().join("ok.cnf")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let header = lines
        .iter()
        .position(|line| line.starts_with("p "))
        .unwrap();
    lines[header + 1] = "1 2 x 0";
    std::fs::write(dir.path().join("bad.cnf"), lines.join("\n") + "\n").unwrap();
    let (code, _, stderr) = run(&["decode", "--cnf", "ok.cnf", "sat.out"], dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    for answer in ["sat.out", "unsat.out"] {
        refused(
            &["decode", "--cnf", "bad.cnf", answer],
            dir.path(),
            "knightsat: bad.cnf: cannot read the CNF's clauses: 'x' in a clause is not a literal",
        );
    }
}
