//! Messages, inputs and outputs (hardening, round three, item 4): every
//! suggestion works when followed, a byte-order mark is skipped, invisible
//! characters in a refused input are escaped, no output is malformed, and a
//! failed write is an error.

use std::fs::File;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::cli::{knightsat, refused};

/// Runs the binary in `dir`: exit code, stdout, stderr.
fn run(args: &[&str], dir: &Path) -> (Option<i32>, String, String) {
    let output = knightsat().args(args).current_dir(dir).output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).to_string(),
        String::from_utf8_lossy(&output.stderr).to_string(),
    )
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
    // So does the frontier counter's, chosen or by the default route.
    for method in ["frontier", "auto"] {
        let (code, _, stderr) = run(
            &[
                "count",
                "--size",
                "6",
                "--method",
                method,
                "--memory-budget",
                "1",
            ],
            dir.path(),
        );
        assert_eq!(code, Some(2), "{method}: {stderr}");
        assert!(
            stderr.contains("--method backtrack") && stderr.lines().count() == 1,
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
        assert!(stderr.contains("cannot write"), "{stderr}");
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
    let (cubes, stderr) = success(
        &[
            "count", "--size", "5", "--closed", "--cubes", "1", "--depth", "2",
        ],
        dir.path(),
    );
    assert_eq!(cubes.trim(), "0");
    assert!(stderr.contains("feasibility gate"), "{stderr}");
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
    for file in ["added.cnf", "camel.cnf"] {
        refused(
            &["count", "--cnf", file],
            dir.path(),
            "the CNF's clauses are not the ones knightsat writes for the problem its comments describe",
        );
    }
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
/// a board at once, and every way out it and the others name works. (The
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
    refused(
        &["count", "--size", "91", "--timeout", "0.5"],
        dir.path(),
        "the default route counts cube by cube and numbers its cubes by that encoding; --method backtrack counts in one search, without cubes, on any board",
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
}
