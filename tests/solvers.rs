//! Real solvers in the loop: kissat, `CaDiCaL`, `MiniSat` and picosat run on the
//! emitted CNF, their answers decoded and verified. A solver missing from PATH
//! makes its tests ignored (reported as such), except under CI=true, where
//! scripts/install-solvers.sh must have installed them all. Solver programs
//! that crash, hang or start helpers of their own: neither their processes
//! nor their temporary files outlive a run, whether it ends with a tour, at
//! the time limit (which covers writing the CNF) or on a signal.

use crate::common;
use knightsat::error::SatError;

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use common::cli::{binary, entries, send};
use common::{Demands, Shape};
use knightsat::encoding::{Amo, EncodingConfig, TimeIndexedConfig};
use knightsat::error::Error;
use knightsat::model::board::Board;
use knightsat::model::problem::{Clue, Problem};
use knightsat::sat::Backend;
use knightsat::solve::{Outcome, Request};

/// A problem and the encoding to give a solver.
type Case = (Problem, EncodingConfig);

/// The solver program `solver`, by its path on PATH (so that `cadical` is
/// the program, not the built-in solver).
fn backend(solver: &str) -> Backend {
    Backend::from_name(&common::sat::program(solver), Vec::new()).unwrap()
}

/// Solves with `backend` within `timeout`.
fn solve_by(
    problem: &Problem,
    config: &EncodingConfig,
    backend: &Backend,
    timeout: Option<Duration>,
) -> Result<Outcome, Error> {
    let request = Request {
        timeout,
        ..common::sat::request(config.clone(), backend)
    };
    common::sat::solve(problem, &request).map(|solved| solved.outcome)
}

/// The boards each solver must tour: open and closed, 5x5 to 10x10, with
/// and without split clauses, every at-most-one encoding.
fn satisfiable_cases() -> Vec<Case> {
    vec![
        case(5, 5, false, None, Some("a1"), Amo::Pairwise),
        case(5, 6, true, Some(3), None, Amo::Commander),
        case(6, 6, false, Some(3), None, Amo::Sequential),
        case(6, 7, true, None, None, Amo::Product),
        case(7, 7, false, None, Some("d4"), Amo::Bimander),
        case(8, 8, true, None, None, Amo::Pairwise),
        case(8, 8, false, Some(3), Some("a1"), Amo::Sequential),
        case(10, 10, true, Some(3), None, Amo::Commander),
    ]
}

fn case(
    rows: usize,
    cols: usize,
    closed: bool,
    split: Option<usize>,
    start: Option<&str>,
    amo: Amo,
) -> Case {
    let board = Board::new(rows, cols).unwrap();
    let start = start.map(|s| board.parse_square(s).unwrap());
    let problem = Problem::new(board)
        .closed(closed)
        .with_start(start)
        .unwrap();
    let config = TimeIndexedConfig {
        max_clause_len: split,
        amo,
        ..TimeIndexedConfig::default()
    };
    (problem, config.into())
}

/// Holes, other leapers and clues: the shape and demands for the oracle's
/// check, and the options to solve.
fn irregular_cases() -> Vec<(Shape, Demands)> {
    vec![
        (
            Shape {
                holes: vec![0, 5],
                ..Shape::knight(6, 6)
            },
            Demands {
                closed: false,
                clues: vec![(10, 14)],
            },
        ),
        (
            // The giraffe's smallest open tour among boards up to 8 ranks.
            Shape {
                leaper: (1, 4),
                ..Shape::knight(5, 8)
            },
            Demands::default(),
        ),
        (
            Shape {
                leaper: (0, 1),
                holes: vec![6],
                ..Shape::knight(5, 6)
            },
            Demands {
                closed: false,
                clues: vec![(0, 0), (28, 27)],
            },
        ),
    ]
}

fn irregular_problem(shape: &Shape, demands: &Demands) -> Problem {
    let clues = demands
        .clues
        .iter()
        .map(|&(step, square)| Clue { step, square });
    Problem::new(shape.board())
        .closed(demands.closed)
        .with_clues(clues)
        .unwrap()
}

fn unsatisfiable_cases() -> Vec<Case> {
    let open_4x4 = Problem::new(Board::new(4, 4).unwrap());
    let closed_5x5 = Problem::new(Board::new(5, 5).unwrap()).closed(true);
    // Parity pruning alone settles 5x5 closed; without it the solver searches.
    let split_unpruned = TimeIndexedConfig {
        max_clause_len: Some(3),
        parity: false,
        ..TimeIndexedConfig::default()
    };
    vec![
        (open_4x4, EncodingConfig::default()),
        (closed_5x5.clone(), EncodingConfig::default()),
        (closed_5x5, split_unpruned.into()),
    ]
}

fn finds_verified_tours(backend: &Backend) {
    let solver = backend.name();
    for (problem, config) in satisfiable_cases() {
        let case = format!("{solver} on {problem:?} {config:?}");
        match solve_by(&problem, &config, backend, Some(Duration::from_secs(120))) {
            Ok(Outcome::Tour(tour)) => {
                let (rows, cols) = (problem.board().rows(), problem.board().cols());
                assert!(
                    common::is_tour(rows, cols, problem.is_closed(), &tour.squares),
                    "{case}: {:?}",
                    tour.names()
                );
                if let Some(start) = problem.effective_start() {
                    assert_eq!(tour.squares[0], start, "{case}");
                }
            }
            other => panic!("{case}: {other:?}"),
        }
    }
    for (shape, demands) in irregular_cases() {
        let problem = irregular_problem(&shape, &demands);
        let case = format!("{solver} on {shape:?} {demands:?}");
        let config = EncodingConfig::default();
        match solve_by(&problem, &config, backend, Some(Duration::from_secs(120))) {
            Ok(Outcome::Tour(tour)) => assert!(
                common::is_tour_of(&shape, &demands, &tour.squares),
                "{case}: {:?}",
                tour.names()
            ),
            other => panic!("{case}: {other:?}"),
        }
    }
}

fn reports_no_tour(backend: &Backend) {
    for (problem, config) in unsatisfiable_cases() {
        let outcome = solve_by(&problem, &config, backend, Some(Duration::from_secs(120)));
        assert!(
            matches!(outcome, Ok(Outcome::NoTour)),
            "{} on {problem:?} {config:?}: {outcome:?}",
            backend.name()
        );
    }
}

/// The CLI's `solve --solver` prints the tour like the in-process solver.
fn cli_solves_with(solver: &str) {
    let output = Command::cargo_bin("knightsat")
        .unwrap()
        .args([
            "solve", "--size", "6", "--closed", "--format", "moves", "--solver", solver,
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(output).unwrap();
    let board = Board::new(6, 6).unwrap();
    let squares: Vec<usize> = text
        .split_whitespace()
        .map(|n| board.parse_square(n).unwrap())
        .collect();
    assert!(common::is_tour(6, 6, true, &squares), "{text}");
}

macro_rules! solver_tests {
    ($module:ident, $cfg:ident, $program:literal) => {
        mod $module {
            #[test]
            #[cfg_attr(not($cfg), ignore = concat!($program, " is not on PATH: run scripts/install-solvers.sh"))]
            fn finds_verified_tours() {
                super::finds_verified_tours(&super::backend($program));
            }

            #[test]
            #[cfg_attr(not($cfg), ignore = concat!($program, " is not on PATH: run scripts/install-solvers.sh"))]
            fn reports_no_tour() {
                super::reports_no_tour(&super::backend($program));
            }

            #[test]
            #[cfg_attr(not($cfg), ignore = concat!($program, " is not on PATH: run scripts/install-solvers.sh"))]
            fn cli_solves() {
                super::cli_solves_with(&crate::common::sat::program($program));
            }
        }
    };
}

solver_tests!(kissat, has_kissat, "kissat");
solver_tests!(cadical, has_cadical, "cadical");
solver_tests!(minisat, has_minisat, "minisat");
solver_tests!(picosat, has_picosat, "picosat");

/// The built-in solvers pass the same tests as the programs.
mod built_in {
    use knightsat::sat::Backend;

    #[test]
    fn find_verified_tours() {
        for backend in crate::common::sat::built_in() {
            super::finds_verified_tours(&backend);
        }
    }

    #[test]
    fn report_no_tour() {
        for backend in crate::common::sat::built_in() {
            super::reports_no_tour(&backend);
        }
    }

    #[test]
    fn solve_from_the_cli() {
        for backend in crate::common::sat::built_in() {
            super::cli_solves_with(backend.name());
        }
    }

    #[test]
    fn a_name_with_a_slash_is_a_program_and_cadical_alone_is_built_in() {
        assert_eq!(
            Backend::from_name("cadical", Vec::new()).unwrap(),
            Backend::Cadical
        );
        assert!(!Backend::from_name("./cadical", Vec::new())
            .unwrap()
            .is_built_in());
        assert!(!Backend::from_name("kissat", Vec::new())
            .unwrap()
            .is_built_in());
        assert!(Backend::from_name("cadical", vec!["-q".into()]).is_err());
    }
}

#[test]
#[cfg_attr(
    not(has_kissat),
    ignore = "kissat is not on PATH: run scripts/install-solvers.sh"
)]
fn kissat_strict_accepts_every_emitted_file() {
    let dir = tempfile::tempdir().unwrap();
    for (index, (problem, config)) in satisfiable_cases()
        .into_iter()
        .chain(unsatisfiable_cases())
        .enumerate()
    {
        let path = dir.path().join(format!("{index}.cnf"));
        let encoding = config.prepare(&problem).unwrap();
        knightsat::cnf_file::write_cnf_file(&*encoding, &path).unwrap();
        assert!(
            common::kissat_strict_accepts(&path),
            "kissat --strict on {problem:?} {config:?}"
        );
    }
}

#[test]
fn a_missing_solver_is_bad_input_naming_the_program() {
    let problem = Problem::new(Board::new(5, 5).unwrap());
    let backend = backend("no-such-solver-here");
    let error = solve_by(&problem, &EncodingConfig::default(), &backend, None).unwrap_err();
    assert!(
        matches!(error, Error::Sat(SatError::SolverMissing { .. })),
        "{error}"
    );
    assert!(error.to_string().contains("no-such-solver-here"));
    Command::cargo_bin("knightsat")
        .unwrap()
        .args(["solve", "--size", "5", "--solver", "no-such-solver-here"])
        .assert()
        .code(2);
}

/// A solver that never answers (`sleep`), recording its process id in
/// the file `pid` of `dir` once it runs: the program's path and that file.
fn sleeper(dir: &Path) -> (String, PathBuf) {
    let pid_file = dir.join("pid");
    let program = fake_solver(
        dir,
        "sleeper",
        &format!(
            "echo $$ > '{}.new'; mv '{0}.new' '{0}'; exec sleep 1000",
            pid_file.display()
        ),
    );
    (program, pid_file)
}

/// Writes an executable shell script standing in for a solver.
fn fake_solver(dir: &Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

#[test]
fn crashing_or_mute_solvers_fail_with_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    for (name, body, words) in [
        (
            "crash",
            "echo 'boom: out of memory' >&2; exit 3",
            "boom: out of memory",
        ),
        ("mute", "exit 10", "nothing usable"),
        (
            "liar",
            "echo 's SATISFIABLE'; echo 'v 1 2 3 0'; exit 10",
            "model is wrong",
        ),
        ("signal", "kill -9 $$", "signal"),
    ] {
        let program = fake_solver(dir.path(), name, body);
        Command::cargo_bin("knightsat")
            .unwrap()
            .args(["solve", "--size", "5", "--solver", &program])
            .assert()
            .code(1)
            .stderr(predicates::str::contains(words));
    }
}

#[test]
fn timeouts_stop_external_solvers_and_leave_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    // A solver that never answers; it records its pid so the test can check it was killed.
    let (program, pid_file) = sleeper(dir.path());
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let started = Instant::now();
    Command::cargo_bin("knightsat")
        .unwrap()
        .env("TMPDIR", &tmp)
        .args([
            "solve",
            "--size",
            "5",
            "--timeout",
            "1",
            "--solver",
            &program,
        ])
        .assert()
        .code(124)
        .stderr(predicates::str::starts_with(
            "knightsat: no answer within 1 s; ",
        ));
    assert!(started.elapsed() < Duration::from_secs(30));
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let alive = std::process::Command::new("kill")
        .args(["-0", pid.trim()])
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap()
        .success();
    assert!(!alive, "the solver process {pid} is still running");
    assert_eq!(
        std::fs::read_dir(&tmp).unwrap().count(),
        0,
        "temporary files left behind"
    );
}

/// A program that prints without end is ended once it has printed more
/// than any answer to the formula takes, before it fills the disk, and
/// its files go with it.
#[test]
fn a_solver_that_prints_without_end_is_ended_before_it_fills_the_disk() {
    let dir = tempfile::tempdir().unwrap();
    let program = fake_solver(dir.path(), "chatter", "yes 'v 1'");
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    Command::cargo_bin("knightsat")
        .unwrap()
        .env("TMPDIR", &tmp)
        .args([
            "solve",
            "--size",
            "6",
            "--timeout",
            "60",
            "--solver",
            &program,
        ])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("printed more than 64 MiB"));
    assert!(entries(&tmp).is_empty(), "{:?}", entries(&tmp));
}

/// SIGKILL of knightsat, which no clean-up sees: the kernel ends the
/// solver program it started, and the next run removes the temporary
/// directory the killed one left.
#[test]
fn a_solver_program_does_not_outlive_a_sigkill_and_its_files_go_next_time() {
    let dir = tempfile::tempdir().unwrap();
    let (sleeper, pid_file) = sleeper(dir.path());
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let mut knightsat = Process::new(binary())
        .args(["solve", "--size", "6", "--solver", &sleeper])
        .env("TMPDIR", &tmp)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !pid_file.exists() && started.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    assert!(alive(pid.trim()));
    assert_eq!(entries(&tmp).len(), 1, "{:?}", entries(&tmp));
    send(&knightsat, libc::SIGKILL);
    knightsat.wait().unwrap();
    let killed = Instant::now();
    while alive(pid.trim()) && killed.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(pid.trim()), "the solver {pid} outlived knightsat");
    assert_eq!(entries(&tmp).len(), 1, "{:?}", entries(&tmp));
    let mute = fake_solver(dir.path(), "mute", "exit 10");
    Command::cargo_bin("knightsat")
        .unwrap()
        .env("TMPDIR", &tmp)
        .args(["solve", "--size", "5", "--solver", &mute])
        .assert()
        .code(1);
    assert!(entries(&tmp).is_empty(), "{:?}", entries(&tmp));
}

#[test]
fn timeouts_abandon_varisat() {
    // 12x12 open without predecessor clauses and move variables takes varisat far longer than 0.2 s.
    Command::cargo_bin("knightsat")
        .unwrap()
        .args([
            "solve",
            "--size",
            "12",
            "--no-predecessor",
            "--no-moves",
            "--timeout",
            "0.2",
        ])
        .timeout(Duration::from_secs(60))
        .assert()
        .code(124)
        .stderr(predicates::str::starts_with(
            "knightsat: no answer within 0.2 s; without --method and encoding options, the default route",
        ));
}

#[test]
#[cfg_attr(
    not(has_kissat),
    ignore = "kissat is not on PATH: run scripts/install-solvers.sh"
)]
fn kissat_tours_20x20_with_a_block_schedule() {
    let problem = Problem::new(Board::new(20, 20).unwrap())
        .with_start(Some(0))
        .unwrap();
    let blocks = TimeIndexedConfig {
        blocks: Some((4, 4)),
        ..TimeIndexedConfig::default()
    };
    match solve_by(
        &problem,
        &blocks.into(),
        &backend("kissat"),
        Some(Duration::from_secs(300)),
    ) {
        Ok(Outcome::Tour(tour)) => assert!(common::is_tour(20, 20, false, &tour.squares)),
        other => panic!("{other:?}"),
    }
}

/// A solver that starts helpers of its own (not exec'ing kissat), records
/// every process id and its temporary directory's mode, and answers with
/// kissat or not at all.
fn forking_solver(dir: &Path, answer: bool) -> PathBuf {
    let path = dir.join(if answer { "forking.sh" } else { "hanging.sh" });
    let log = dir.join("pids");
    let solve = if answer {
        "kissat -q \"$@\""
    } else {
        "sleep 1000"
    };
    let script = format!(
        "#!/bin/sh\necho $$ >> {log}\nstat -c %a \"$(dirname \"$1\")\" > {mode}\nsleep 1000 &\necho $! >> {log}\nyes > /dev/null &\necho $! >> {log}\n{solve}\n",
        log = log.display(),
        mode = dir.join("mode").display()
    );
    let mut file = std::fs::File::create(&path).unwrap();
    file.write_all(script.as_bytes()).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Whether a process is alive (a zombie waiting for its reaper is not).
fn alive(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat.rsplit(')').next().unwrap_or("").trim_start();
        !state.starts_with('Z') && !state.starts_with('X')
    })
}

/// After a run: no process the solver started is alive, and the private
/// temporary directory (mode 0700) is gone.
fn nothing_left(dir: &Path, tmp: &Path) {
    std::thread::sleep(Duration::from_millis(300));
    let pids = std::fs::read_to_string(dir.join("pids")).unwrap();
    let living: Vec<&str> = pids.lines().filter(|pid| alive(pid)).collect();
    assert!(living.is_empty(), "still running: {living:?}");
    assert!(entries(tmp).is_empty(), "{:?}", entries(tmp));
    assert_eq!(
        std::fs::read_to_string(dir.join("mode")).unwrap().trim(),
        "700"
    );
    std::fs::remove_file(dir.join("pids")).unwrap();
}

#[test]
#[cfg_attr(
    not(has_kissat),
    ignore = "kissat is not on PATH: run scripts/install-solvers.sh"
)]
fn solver_process_groups_and_temporary_files_never_outlive_a_run() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let forking = forking_solver(dir.path(), true);
    let hanging = forking_solver(dir.path(), false);
    let solve = |solver: &Path, extra: &[&str]| {
        let mut command = Process::new(binary());
        command
            .args(["solve", "--size", "6", "--solver"])
            .arg(solver)
            .args(extra)
            .env("TMPDIR", &tmp)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        command
    };
    // A tour found: the helpers the solver left running are ended too.
    assert!(solve(&forking, &[]).status().unwrap().success());
    nothing_left(dir.path(), &tmp);
    // The time limit.
    let status = solve(&hanging, &["--timeout", "1"]).status().unwrap();
    assert_eq!(status.code(), Some(124));
    nothing_left(dir.path(), &tmp);
    // SIGTERM, SIGINT and SIGHUP to knightsat itself.
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        let mut child = solve(&hanging, &[]).spawn().unwrap();
        let started = Instant::now();
        while !dir.path().join("pids").exists() && started.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(200));
        send(&child, signal);
        assert_eq!(child.wait().unwrap().code(), Some(128 + signal));
        // At once, not a moment later: knightsat waits for the group it
        // ended before it exits.
        let pids = std::fs::read_to_string(dir.path().join("pids")).unwrap();
        let living: Vec<&str> = pids.lines().filter(|pid| alive(pid)).collect();
        assert!(
            living.is_empty(),
            "still running as knightsat exited on signal {signal}: {living:?}"
        );
        nothing_left(dir.path(), &tmp);
    }
}

#[test]
fn the_time_limit_covers_writing_the_cnf() {
    // Writing the 64x64 CNF alone takes longer than the limit.
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let status = Process::new(binary())
        .args([
            "solve",
            "--size",
            "64",
            "--solver",
            "kissat",
            "--timeout",
            "1",
        ])
        .env("TMPDIR", dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(124));
    // Generous: it answers at the limit; the bound only catches a limit
    // that waits for the whole CNF again (many seconds on this board).
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    assert!(entries(dir.path()).is_empty());
}
