//! The help as ripgrep and cargo give it: `-h` one line per option within
//! 100 columns and one screen, `--help` the long text under headings, the
//! defaults it shows the ones that run, clap's typo tips kept, and the man
//! page and completions generated from the same definitions.

use crate::common::cli::{knightsat, refused, stdout_of};

/// Every command `knightsat --help` lists.
const COMMANDS: [&str; 11] = [
    "solve", "encode", "decode", "count", "verify", "puzzle", "certify", "sum", "cubes", "stats",
    "generate",
];

/// The longest line of `text`, in characters.
fn widest(text: &str) -> usize {
    text.lines()
        .map(|line| line.chars().count())
        .max()
        .unwrap_or(0)
}

#[test]
fn short_help_fits_100_columns_and_one_screen() {
    for command in std::iter::once(None).chain(COMMANDS.map(Some)) {
        let args: Vec<&str> = command.into_iter().chain(["-h"]).collect();
        let help = stdout_of(&args);
        assert!(
            widest(&help) <= 100,
            "{args:?}: {} columns\n{help}",
            widest(&help)
        );
        assert!(
            help.lines().count() <= 60,
            "{args:?}: {} lines\n{help}",
            help.lines().count()
        );
        assert!(help.ends_with('\n'), "{args:?}");
    }
}

#[test]
fn long_help_is_wrapped_and_grouped_under_headings() {
    for command in ["solve", "count"] {
        let help = stdout_of(&[command, "--help"]);
        assert!(widest(&help) <= 100, "{command}: {} columns", widest(&help));
        let at = |heading: &str| {
            help.lines()
                .position(|line| line == heading)
                .unwrap_or_else(|| panic!("{command} --help has no {heading}\n{help}"))
        };
        // What to solve first, the encoding's tuning last.
        let order = ["Problem:", "Method:", "Output:", "Limits:", "Encoding:"].map(at);
        assert!(
            order.windows(2).all(|pair| pair[0] < pair[1]),
            "{command}: {order:?}"
        );
        assert!(
            help.contains("129, 130, 143"),
            "{command}: the exit statuses"
        );
    }
}

#[test]
fn the_defaults_shown_are_the_ones_that_run() {
    let help = stdout_of(&["solve", "--help"]);
    assert!(!help.contains("[default: varisat]"), "{help}");
    assert!(
        help.contains("[default: auto: Warnsdorff's rule, then SAT]"),
        "{help}"
    );
    let route = knightsat()
        .args(["solve", "--size", "8", "-v"])
        .assert()
        .success()
        .get_output()
        .stderr
        .clone();
    assert!(
        String::from_utf8_lossy(&route).contains("route: Warnsdorff's rule"),
        "{}",
        String::from_utf8_lossy(&route)
    );
    let count = stdout_of(&["count", "--help"]);
    assert!(count.contains("[default: one per core]"), "{count}");
    assert!(
        !count.contains("--jobs <N>  Threads [default: 1]"),
        "{count}"
    );
}

#[test]
fn each_command_lists_only_what_it_takes() {
    let count = stdout_of(&["count", "-h"]);
    let methods = count
        .lines()
        .skip_while(|line| !line.contains("--method"))
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        methods.contains("auto, sat, backtrack, frontier"),
        "{methods}"
    );
    assert!(!methods.contains("warnsdorff"), "{methods}");
    assert!(!count.contains("--no-patching"), "{count}");
    let solve = stdout_of(&["solve", "-h"]);
    assert!(!solve.contains("frontier]"), "{solve}");
    assert!(solve.contains("--no-patching"), "{solve}");
    // Cuts are made where a loop solves (solve, count), nowhere else.
    assert!(stdout_of(&["count", "--help"]).contains("--no-merged-cuts"));
    assert!(stdout_of(&["solve", "--help"]).contains("--no-merged-cuts"));
    assert!(!stdout_of(&["encode", "--help"]).contains("--no-merged-cuts"));
    assert!(!stdout_of(&["count", "--help"]).contains("A numbered-grid puzzle to solve"));
    for command in [
        "verify", "decode", "certify", "sum", "encode", "stats", "cubes",
    ] {
        let help = stdout_of(&[command, "--help"]);
        assert!(!help.contains("--memory-budget"), "{command}\n{help}");
    }
    for command in ["solve", "count", "puzzle"] {
        assert!(
            stdout_of(&[command, "-h"]).contains("--memory-budget"),
            "{command}"
        );
    }
}

#[test]
fn typos_get_clap_tips() {
    let dir = tempfile::tempdir().unwrap();
    refused(
        &["solve", "--szie", "8"],
        dir.path(),
        "a similar argument exists: '--size'",
    );
    refused(
        &["slove", "--size", "8"],
        dir.path(),
        "a similar subcommand exists: 'solve'",
    );
    // A value not taken still names what is.
    refused(
        &["count", "--size", "5", "--method", "fronteir"],
        dir.path(),
        "frontier",
    );
}

#[test]
fn the_man_page_holds_every_command_and_option() {
    let page = stdout_of(&["generate", "man"]);
    assert!(
        page.contains(".TH knightsat 1"),
        "{}",
        &page[..200.min(page.len())]
    );
    for command in COMMANDS {
        assert!(
            page.contains(&format!(".SH \"KNIGHTSAT {}\"", command.to_uppercase())),
            "no section for {command}"
        );
    }
    for option in [
        "\\-\\-size",
        "\\-\\-memory\\-budget",
        "\\-\\-frontier\\-order",
    ] {
        assert!(page.contains(option), "{option}");
    }
    assert!(page.contains("EXIT STATUS"));
    // roff that man can lay out, where man is there to try it.
    if let Ok(man) = which("man") {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("knightsat.1");
        std::fs::write(&file, &page).unwrap();
        let shown = std::process::Command::new(man)
            .args(["-l", "-P", "cat"])
            .arg(&file)
            .env("MANWIDTH", "80")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&shown.stdout);
        assert!(text.contains("knightsat count"), "{text}");
    }
}

/// Where `program` is on PATH.
fn which(program: &str) -> Result<std::path::PathBuf, ()> {
    std::env::split_paths(&std::env::var_os("PATH").ok_or(())?)
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
        .ok_or(())
}

#[test]
fn completions_name_the_commands_and_their_options() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout_of(&["generate", &format!("complete-{shell}")]);
        assert!(script.contains("knightsat"), "{shell}");
        assert!(script.contains("frontier-order"), "{shell}");
        assert!(
            script.contains("solve") && script.contains("certify"),
            "{shell}"
        );
    }
    // bash reads the bash script without a syntax error.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("knightsat.bash");
    std::fs::write(&file, stdout_of(&["generate", "complete-bash"])).unwrap();
    let status = std::process::Command::new("bash")
        .arg("-n")
        .arg(&file)
        .status()
        .unwrap();
    assert!(status.success());
}
