//! Cubes beyond the memory budget are streamed or refused in bounded
//! memory, measured as each run's peak resident memory. The runs start from
//! this small process: a child started from a large one (the integration
//! tests' process) counts its parent's peak until it execs.

use crate::common;

/// What a run of the binary did: exit code, peak resident memory (KiB, from
/// `wait4`, for this child alone), stdout and stderr. Fails the test when
/// the run takes longer than `limit`.
#[allow(
    clippy::zombie_processes,
    reason = "reaped by wait4, which also gives its peak memory"
)]
fn measured(args: &[&str], limit: std::time::Duration) -> (Option<i32>, i64, String, String) {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_knightsat"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            pipe.read_to_string(&mut text).unwrap();
            text
        })
    };
    let stdout = read(Box::new(child.stdout.take().unwrap()));
    let stderr = read(Box::new(child.stderr.take().unwrap()));
    let pid = child.id() as libc::pid_t;
    let started = std::time::Instant::now();
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is valid, and wait4 writes only into
        // the two values it is given, which outlive the call.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let waited = unsafe { libc::wait4(pid, &raw mut status, libc::WNOHANG, &raw mut usage) };
        if waited == pid {
            break (status, usage);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} ran longer than {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    (
        code,
        usage.ru_maxrss,
        stdout.join().unwrap(),
        stderr.join().unwrap(),
    )
}

/// The oracle's number of knight paths of `moves` moves from a1 on
/// `rows` x `cols` through distinct squares.
fn paths_from_a1(rows: usize, cols: usize, moves: usize) -> usize {
    paths_from(rows, cols, moves, &[0])
}

/// The oracle's number of knight paths of `moves` moves from any of
/// `starts` on `rows` x `cols` through distinct squares.
fn paths_from(rows: usize, cols: usize, moves: usize, starts: &[usize]) -> usize {
    fn walk(graph: &[Vec<usize>], here: usize, left: usize, seen: &mut [bool]) -> usize {
        if left == 0 {
            return 1;
        }
        let mut paths = 0;
        for &next in &graph[here] {
            if !seen[next] {
                seen[next] = true;
                paths += walk(graph, next, left - 1, seen);
                seen[next] = false;
            }
        }
        paths
    }
    let graph = common::knight_graph(rows, cols);
    let mut paths = 0;
    for &start in starts {
        let mut seen = vec![false; rows * cols];
        seen[start] = true;
        paths += walk(&graph, start, moves, &mut seen);
    }
    paths
}

pub fn cubes_beyond_the_memory_budget_are_streamed_or_refused_in_bounded_memory() {
    use knightsat::bytes_per_cube;
    // 9x9 closed from a1 without parity pruning: millions of cubes (no
    // pruning reaches them at 10 moves, so they are exactly the knight
    // paths from a1), and Schwenk's theorem answers each one at once.
    let base = ["--size", "9", "--closed", "--no-parity"];
    let limit = std::time::Duration::from_secs(60);
    let with = |args: &[&str]| -> Vec<String> {
        args.iter().chain(&base).map(ToString::to_string).collect()
    };
    let run = |args: &[String]| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        measured(&args, limit)
    };
    let counts: Vec<usize> = (0..=10).map(|d| paths_from_a1(9, 9, d)).collect();
    let budget = 100 << 20;
    assert!(counts[10] as u64 * bytes_per_cube(10) > 8 * budget);

    // The sample: every cube counted, only three made. On 6x6 open, from
    // every start, which has tours (9x9 closed has none, and the gate says
    // so before any cube is drawn), and whose cubes need no more than
    // 9x9's: 12 million at depth 10, each a few milliseconds of SAT.
    let sampled = paths_from(6, 6, 10, &(0..36).collect::<Vec<_>>());
    assert!(sampled as u64 * bytes_per_cube(10) > 8 * budget);
    let sample: Vec<String> = [
        "count",
        "--depth",
        "10",
        "--sample",
        "3",
        "--size",
        "6",
        "--no-parity",
        "--memory-budget",
        "100",
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    let (code, peak_kib, stdout, stderr) = run(&sample);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains(&format!("from 3 of {sampled} cubes at depth 10")),
        "{stdout}"
    );
    assert!(peak_kib < 50_000, "count --sample peaked at {peak_kib} KiB");

    // The iCNF: every cube written, none held (`cubes` has no budget to
    // keep to: it streams them).
    let (code, peak_kib, _, stderr) = run(&with(&["cubes", "--depth", "9", "-o", "/dev/null"]));
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!(", {} cubes", counts[9])),
        "{stderr}"
    );
    assert!(peak_kib < 50_000, "cubes -o peaked at {peak_kib} KiB");

    // Solving (or counting) on threads holds every cube: refused at once,
    // naming the deepest depth whose cubes fit.
    let fits = |d: usize| counts[d] as u64 * bytes_per_cube(d) <= budget;
    let deepest = (1..10).rev().find(|&d| fits(d)).unwrap();
    let command = [
        "solve",
        "--no-theory",
        "--jobs",
        "2",
        "--depth",
        "10",
        "--memory-budget",
        "100",
    ];
    let (code, peak_kib, _, stderr) = run(&with(&command));
    assert_eq!(code, Some(2), "{command:?}: {stderr}");
    // One line, after solve's note that a closed tour starts on a1.
    let errors = stderr.lines().filter(|line| !line.starts_with("note: "));
    assert_eq!(errors.count(), 1, "{stderr}");
    assert!(
        stderr.contains("over the budget of 100 MiB (--memory-budget)")
            && stderr.contains(&format!("--depth {deepest} or less fits")),
        "{command:?}: {stderr}"
    );
    assert!(peak_kib < 50_000, "{command:?} peaked at {peak_kib} KiB");
}

/// The frontier counter's process holds no more than its --memory-budget
/// and the program's own few MiB: its tables are charged to the budget, and
/// the memory they free goes back to the kernel at once (with mimalloc's
/// purge delay the run below peaked at 364 MiB). Processed forward, 6x12
/// closed takes 33 MiB of tables: within 12 MiB it keeps the rest in files
/// under --spill-dir, which are gone when it ends (one thread: with two,
/// the successors on their way between the threads are not charged to the
/// budget, and a spilling run peaks about 35 MiB over it, issue 51's
/// note); the count is A175881's. Met in the middle, 7x8 closed's half
/// steps split into parts and it is counted within 100 MiB in memory, the
/// count A193054's. A spill directory that is not there is refused
/// before any work.
pub fn a_frontier_count_stays_within_its_memory_budget() {
    let spill = tempfile::tempdir().unwrap();
    for (board, order, jobs, budget_mib) in [("6x12", "rows", "1", 12), ("7x8", "meet", "2", 100)] {
        let mut args = common::cli::frontier_closed(board, order, budget_mib, spill.path());
        args.extend(["--jobs", jobs, "-v"].map(String::from));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, peak_kib, stdout, stderr) = measured(&args, std::time::Duration::from_secs(300));
        assert_eq!(code, Some(0), "{stderr}");
        let cycles: u64 = stdout.trim().parse::<u64>().unwrap() / 2;
        assert_eq!(Some(cycles), published(board), "{stdout}");
        // Forward, the states went to disk; met in the middle, they fit.
        assert_eq!(
            stderr.contains("the files at most"),
            order == "rows",
            "{order}: {stderr}"
        );
        assert_eq!(
            spill.path().read_dir().unwrap().count(),
            0,
            "files left behind"
        );
        // The program alone (the binary, its libraries, a small count) is
        // about 10 MiB.
        let peak_mib = peak_kib / 1024;
        assert!(
            peak_mib <= i64::try_from(budget_mib).unwrap() + 25,
            "{order}: peak {peak_mib} MiB within a budget of {budget_mib} MiB"
        );
    }
    // A directory that is not there: refused in one line, exit 2, before
    // any work (no progress line).
    let args = common::cli::frontier_closed("6x12", "rows", 12, &spill.path().join("not-there"));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, _, _, stderr) = measured(&args, std::time::Duration::from_secs(300));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--spill-dir")
            && stderr.contains("not-there does not exist")
            && stderr.lines().count() == 1,
        "{stderr}"
    );
}

/// The closed tours of `board` in `fixtures/oeis/A193054.txt` (7 x 2n)
/// or `A175881.txt` (6 x n).
fn published(board: &str) -> Option<u64> {
    ["A193054", "A175881"].iter().find_map(|sequence| {
        let path = format!(
            "{}/fixtures/oeis/{sequence}.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .find_map(|line| line.strip_prefix(&format!("{board}\t")))
            .map(|n| n.trim().parse().unwrap())
    })
}
