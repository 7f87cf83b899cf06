//! Certificates of impossibility: varisat's DRAT proofs, and kissat's and
//! `CaDiCaL`'s for the same CNF, checked by the independent checker rate;
//! and the proof and CNF files a run writes, which replace the user's files
//! only when there is a proof to write (not on a tour, the time limit or a
//! signal), and never as a mismatched pair.

use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use crate::common;

use common::cli::{binary, entries, knightsat, run, send};
use predicates::str::contains;

/// `solve --proof` for an impossible board: exit 20, a proof and a CNF
/// written, and the proof verified by `certify`.
fn proves_no_tour(args: &[&str], dir: &Path, name: &str) {
    let proof = dir.join(format!("{name}.drat"));
    knightsat()
        .arg("solve")
        .args(args)
        .arg("--proof")
        .arg(&proof)
        .assert()
        .code(20)
        .stdout("no tour exists for these constraints\n");
    let cnf = dir.join(format!("{name}.cnf"));
    assert!(
        cnf.is_file() && proof.is_file(),
        "{name}: CNF and proof written"
    );
    certified(&cnf, &proof);
}

/// `certify` accepts `proof` as a proof that `cnf` has no model.
fn certified(cnf: &Path, proof: &Path) {
    knightsat()
        .args(["certify", "--cnf"])
        .arg(cnf)
        .arg("--proof")
        .arg(proof)
        .assert()
        .success()
        .stdout(contains("verified"));
}

#[test]
#[cfg_attr(
    not(has_rate),
    ignore = "rate is not on PATH: run scripts/install-solvers.sh"
)]
fn built_in_cadical_proofs_of_impossible_boards_check() {
    let dir = tempfile::tempdir().unwrap();
    let cadical = ["--solver", "cadical"];
    proves_no_tour(
        &[&["--size", "4"][..], &cadical].concat(),
        dir.path(),
        "4x4-open",
    );
    proves_no_tour(
        &[&["--size", "5", "--closed", "--no-parity"][..], &cadical].concat(),
        dir.path(),
        "5x5-closed-no-parity",
    );
    proves_no_tour(
        &[&["--board", "4x5", "--closed"][..], &cadical].concat(),
        dir.path(),
        "4x5-closed",
    );
}

#[test]
#[cfg_attr(
    not(has_rate),
    ignore = "rate is not on PATH: run scripts/install-solvers.sh"
)]
fn varisat_proofs_of_the_classic_impossible_boards_check() {
    let dir = tempfile::tempdir().unwrap();
    proves_no_tour(&["--size", "4"], dir.path(), "4x4-open");
    // The colour count alone rules 5x5 closed out; without the parity
    // pruning the proof needs real search.
    proves_no_tour(&["--size", "5", "--closed"], dir.path(), "5x5-closed");
    proves_no_tour(
        &["--size", "5", "--closed", "--no-parity"],
        dir.path(),
        "5x5-closed-no-parity",
    );
    proves_no_tour(&["--board", "3x6", "--closed"], dir.path(), "3x6-closed");
    proves_no_tour(&["--board", "4x5", "--closed"], dir.path(), "4x5-closed");
}

#[test]
#[cfg_attr(
    not(has_rate),
    ignore = "rate is not on PATH: run scripts/install-solvers.sh"
)]
fn a_corrupted_proof_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    // 4x4 open needs real search: its proof is thousands of lemmas. Nothing
    // is pruned in the naive encoding, so every variable is constrained and
    // the lemma -1 2 is not implied.
    proves_no_tour(&["--size", "4", "--preset", "naive"], dir.path(), "p");
    let proof = std::fs::read_to_string(dir.path().join("p.drat")).unwrap();
    let lines: Vec<&str> = proof.lines().collect();
    let corruptions = [
        ("truncated", lines[..lines.len() / 10].join("\n") + "\n"),
        ("unjustified first lemma", format!("-1 2 0\n{proof}")),
    ];
    for (what, text) in corruptions {
        let bad = dir.path().join(format!("{}.drat", what.replace(' ', "-")));
        std::fs::write(&bad, text).unwrap();
        knightsat()
            .args(["certify", "--cnf"])
            .arg(dir.path().join("p.cnf"))
            .arg("--proof")
            .arg(&bad)
            .assert()
            .code(1)
            .stderr(contains("proof rejected"));
    }
}

/// A solver run as `SOLVER CNF PROOF` on 5x5 closed, which must answer
/// UNSAT (exit 20).
fn external_proof(solver: &str) {
    external_proof_of(solver, &["--size", "5", "--closed", "--no-parity"]);
}

/// A solver run as `SOLVER CNF PROOF` on what `encode` writes for
/// `args`, which must answer UNSAT (exit 20).
fn external_proof_of(solver: &str, args: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("impossible.cnf");
    knightsat()
        .arg("encode")
        .args(args)
        .arg("-o")
        .arg(&cnf)
        .assert()
        .success();
    let proof = dir.path().join(format!("{solver}.drat"));
    let status = std::process::Command::new(solver)
        .arg("-q")
        .arg(&cnf)
        .arg(&proof)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert_eq!(
        status.code(),
        Some(20),
        "{solver} finds {args:?} unsatisfiable"
    );
    certified(&cnf, &proof);
}

#[test]
#[cfg_attr(
    not(all(has_rate, has_kissat)),
    ignore = "rate or kissat is not on PATH: run scripts/install-solvers.sh"
)]
fn kissat_proofs_check() {
    external_proof("kissat");
    // The complete successor formula, the positions' parity in it.
    external_proof_of(
        "kissat",
        &["--size", "5", "--closed", "--encoding", "successor"],
    );
    external_proof_of("kissat", &["--size", "4", "--encoding", "successor"]);
    // Every other complete formula: residues in bits, in unary, and
    // vertex elimination with no positions.
    for code in [
        &["--positions", "lfsr"][..],
        &["--positions", "binary"],
        &["--positions", "unary"],
        &["--acyclicity", "vertex-elimination"],
    ] {
        for board in [&["--size", "5", "--closed"][..], &["--size", "4"]] {
            external_proof_of(
                "kissat",
                &[board, &["--encoding", "successor"], code].concat(),
            );
        }
    }
}

#[test]
#[cfg_attr(
    not(all(has_rate, has_cadical)),
    ignore = "rate or cadical is not on PATH: run scripts/install-solvers.sh"
)]
fn cadical_proofs_check() {
    external_proof("cadical");
}

/// `--proof -` (or `--cnf-out -`) writes to standard output, as `encode -o
/// -` does, not to a file named `-`; the answer then goes to stderr, so
/// that standard output holds the proof (or the CNF) alone, which
/// `certify` accepts once saved.
#[test]
#[cfg_attr(
    not(has_rate),
    ignore = "rate is not on PATH: run scripts/install-solvers.sh"
)]
fn a_proof_or_its_cnf_on_standard_output_is_all_that_is_there() {
    let dir = tempfile::tempdir().unwrap();
    let board = ["solve", "--board", "3x4", "--closed", "--no-theory"];
    for (to_stdout, to_file, file) in [
        ("--proof", "--cnf-out", "proved.cnf"),
        ("--cnf-out", "--proof", "proof.drat"),
    ] {
        let output = knightsat()
            .args(board)
            .args([to_stdout, "-", to_file, file])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(20), "{stderr}");
        assert!(
            stderr.contains("no tour exists for these constraints"),
            "{stderr}"
        );
        assert!(!dir.path().join("-").exists(), "no file named -");
        let saved = dir.path().join(if to_stdout == "--proof" {
            "saved.drat"
        } else {
            "saved.cnf"
        });
        std::fs::write(&saved, &output.stdout).unwrap();
        let (cnf, proof) = if to_stdout == "--proof" {
            (dir.path().join(file), saved)
        } else {
            (saved, dir.path().join(file))
        };
        certified(&cnf, &proof);
    }
    let (code, stderr) = run(
        &[&board[..], &["--proof", "-", "--cnf-out", "/dev/stdout"]].concat(),
        dir.path(),
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("both name standard output"), "{stderr}");
}

#[test]
fn no_proof_is_written_when_a_tour_exists() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("5x5.drat");
    knightsat()
        .args(["solve", "--size", "5", "--format", "moves", "--proof"])
        .arg(&proof)
        .assert()
        .success()
        .stderr(contains("no proof to write"));
    assert!(!proof.exists());
    assert!(
        !dir.path().join("5x5.cnf").exists(),
        "nothing to prove, so no CNF for a proof either"
    );
}

#[test]
fn certify_needs_the_files() {
    knightsat()
        .args([
            "certify",
            "--cnf",
            "/no/such.cnf",
            "--proof",
            "/no/such.drat",
        ])
        .assert()
        .code(2)
        .stderr(contains("cannot read /no/such.cnf"));
}

#[test]
#[cfg_attr(
    not(all(has_rate, has_kissat)),
    ignore = "rate or kissat is not on PATH: run scripts/install-solvers.sh"
)]
fn formulas_that_unit_propagation_refutes_are_certified() {
    // a1 and f6 are of one colour, so the parity pruning leaves the end no
    // square: unit propagation refutes the CNF, varisat's proof is empty
    // and rate panics on it (and on any proof of it).
    let dir = tempfile::tempdir().unwrap();
    proves_no_tour(
        &["--size", "6", "--start", "a1", "--end", "f6"],
        dir.path(),
        "q",
    );
    let cnf = dir.path().join("q.cnf");
    assert_eq!(std::fs::read(dir.path().join("q.drat")).unwrap(), b"");
    std::fs::write(dir.path().join("zero.drat"), "0\n").unwrap();
    let kissat = std::process::Command::new("kissat")
        .arg("-q")
        .arg(&cnf)
        .arg(dir.path().join("kissat.drat"))
        .status()
        .unwrap();
    assert_eq!(kissat.code(), Some(20));
    for proof in ["q.drat", "zero.drat", "kissat.drat"] {
        knightsat()
            .args(["certify", "--cnf"])
            .arg(&cnf)
            .arg("--proof")
            .arg(dir.path().join(proof))
            .assert()
            .success()
            .stdout(contains("verified: unit propagation alone refutes"));
    }
}

#[test]
fn a_checker_that_crashes_is_no_rejection() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    // 4x4 open needs search: propagation alone does not refute it.
    proves_no_tour_unchecked(&["--size", "4"], dir.path());
    for (how, body, status) in [
        (
            "panic",
            "echo \"thread 'main' panicked at rate.rs:1470:5:\" >&2\necho 'stack backtrace:' >&2\necho 'note: run with RUST_BACKTRACE=full' >&2\nexit 101",
            "crashed (exit status 101)",
        ),
        ("signal", "kill -SEGV $$", "crashed (killed by signal 11)"),
    ] {
        let bin = dir.path().join(how);
        std::fs::create_dir(&bin).unwrap();
        let rate = bin.join("rate");
        std::fs::write(&rate, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&rate, std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
        let output = knightsat()
            .args(["certify", "--cnf", "p.cnf", "--proof", "p.drat"])
            .current_dir(dir.path())
            .env("PATH", path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{how}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{how}: {stderr}");
        assert!(stderr.contains(status), "{how}: {stderr}");
        assert!(stderr.contains("neither verified nor rejected"), "{how}: {stderr}");
        for leaked in ["panicked", "backtrace", "BACKTRACE", "rejected by"] {
            assert!(!stderr.contains(leaked), "{how}: {stderr}");
        }
    }
}

/// `solve --proof p.drat` in `dir` for an impossible board (no rate needed).
fn proves_no_tour_unchecked(args: &[&str], dir: &Path) {
    knightsat()
        .arg("solve")
        .args(args)
        .args(["--proof", "p.drat"])
        .current_dir(dir)
        .assert()
        .code(20);
}

#[test]
fn a_proof_run_with_a_tour_leaves_the_users_files_alone() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("my.drat"), "OLD").unwrap();
    std::fs::write(dir.path().join("my.cnf"), "OLD").unwrap();
    let (code, stderr) = run(&["solve", "--size", "6", "--proof", "my.drat"], dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    for name in ["my.drat", "my.cnf"] {
        assert_eq!(
            std::fs::read_to_string(dir.path().join(name)).unwrap(),
            "OLD"
        );
    }
    assert_eq!(entries(dir.path()), ["my.cnf", "my.drat"]);
}

#[test]
fn a_proof_honours_the_time_limit_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.drat"), "OLD").unwrap();
    let (code, stderr) = run(
        &[
            "solve",
            "--size",
            "16",
            "--no-predecessor",
            "--no-moves",
            "--proof",
            "p.drat",
            "--timeout",
            "1",
        ],
        dir.path(),
    );
    assert_eq!(code, Some(124), "{stderr}");
    assert_eq!(entries(dir.path()), ["p.drat"]);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("p.drat")).unwrap(),
        "OLD"
    );
}

#[test]
fn a_signal_during_a_proof_run_leaves_the_old_files_alone() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("my.drat"), "OLD").unwrap();
    let mut child = Process::new(binary())
        .args([
            "solve",
            "--size",
            "16",
            "--no-predecessor",
            "--no-moves",
            "--proof",
            "my.drat",
        ])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while entries(dir.path()).len() < 3 && started.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    send(&child, libc::SIGINT);
    assert_eq!(child.wait().unwrap().code(), Some(130));
    assert_eq!(entries(dir.path()), ["my.drat"]);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("my.drat")).unwrap(),
        "OLD"
    );
}

#[test]
#[cfg_attr(
    not(has_rate),
    ignore = "the DRAT checker rate is not on PATH: run scripts/install-solvers.sh"
)]
fn concurrent_proofs_never_leave_a_mismatched_pair() {
    // Three impossible boards, each run writing the same two names; every
    // pair left must check.
    let dir = tempfile::tempdir().unwrap();
    for _ in 0..2 {
        let children: Vec<_> = ["4x4", "3x5", "3x6"]
            .iter()
            .map(|board| {
                Process::new(binary())
                    .args([
                        "solve",
                        "--board",
                        board,
                        "--no-theory",
                        "--no-parity",
                        "--proof",
                        "pr.drat",
                    ])
                    .current_dir(dir.path())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut child in children {
            assert_eq!(child.wait().unwrap().code(), Some(20));
        }
        knightsat()
            .args(["certify", "--cnf", "pr.cnf", "--proof", "pr.drat"])
            .current_dir(dir.path())
            .assert()
            .success();
    }
}
