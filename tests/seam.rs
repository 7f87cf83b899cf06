//! The solver seam: the built-in solvers run in this process (a decoy
//! program of the same name never runs), and each session reports its own
//! subtour-loop figures, even beside another session on another thread.
//! (Built-in `CaDiCaL`'s proofs are checked in tests/proofs.rs.)

use crate::common;

use std::os::unix::fs::PermissionsExt;

use common::cli::knightsat;
use knightsat::encoding::{Subtours, SuccessorConfig};
use knightsat::sat::{Backend, Setup};
use knightsat::solve::SubtourLoop;

/// A directory with a `cadical` program that leaves a mark when it runs.
fn decoy() -> (tempfile::TempDir, std::path::PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    let mark = dir.path().join("the-decoy-ran");
    let program = dir.path().join("cadical");
    std::fs::write(
        &program,
        format!("#!/bin/sh\ntouch '{}'\nexit 1\n", mark.display()),
    )
    .unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        dir.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (dir, mark, path)
}

#[test]
fn built_in_cadical_spawns_no_program() {
    let (_dir, mark, path) = decoy();
    for args in [
        &["solve", "--size", "6", "--solver", "cadical"][..],
        &[
            "solve",
            "--size",
            "12",
            "--encoding",
            "successor",
            "--solver",
            "cadical",
        ],
        &[
            "solve", "--size", "5", "--all", "--limit", "3", "--solver", "cadical",
        ],
        &["solve", "--size", "6", "--jobs", "2", "--solver", "cadical"],
        &["count", "--board", "3x4", "--solver", "cadical"],
        &[
            "puzzle", "--size", "5", "--seed", "1", "--solver", "cadical",
        ],
    ] {
        knightsat().args(args).env("PATH", &path).assert().success();
        assert!(!mark.exists(), "{args:?} ran the cadical program");
    }
    // The decoy does run when asked for by path: the test can see it.
    let decoy = mark.with_file_name("cadical");
    knightsat()
        .args(["solve", "--size", "5", "--solver"])
        .arg(&decoy)
        .assert()
        .code(1);
    assert!(mark.exists(), "the decoy leaves its mark");
}

/// Lazy successor searches whose subtour loops (by cuts alone, without
/// patching) take several rounds.
fn lazy_searches() -> Vec<knightsat::model::problem::Problem> {
    [(8, false), (10, true), (12, true)]
        .into_iter()
        .map(|(size, closed)| common::adapters::plain_problem(size, size, closed, None))
        .collect()
}

/// The subtour-loop figures of one session's first tour, by cuts alone.
fn loop_of(problem: &knightsat::model::problem::Problem, backend: &Backend) -> SubtourLoop {
    let config = SuccessorConfig {
        subtours: Subtours::Lazy,
        ..SuccessorConfig::default()
    };
    let request = common::sat::request(config, backend);
    let encoding = request.config.prepare(problem).unwrap();
    let mut session = request.session(encoding, Setup::default()).unwrap();
    assert!(session.next_tour().unwrap().is_some());
    session.subtour_loop()
}

#[test]
fn each_session_reports_its_own_subtour_loop_beside_another() {
    for backend in common::sat::built_in() {
        let problems = lazy_searches();
        let alone: Vec<SubtourLoop> = problems.iter().map(|p| loop_of(p, &backend)).collect();
        assert!(
            alone.iter().any(|figures| figures.rounds > 1),
            "{}: some search needs more than one round: {alone:?}",
            backend.name()
        );
        // The same searches at once, on threads of their own: each gets the
        // figures it got alone (both solvers are deterministic).
        let together: Vec<SubtourLoop> = std::thread::scope(|scope| {
            let handles: Vec<_> = problems
                .iter()
                .map(|problem| scope.spawn(|| loop_of(problem, &backend)))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(alone, together, "{}", backend.name());
    }
}
