//! The cube files (`cubes --split`). Property tests: on random boards and
//! depths, with a signal at a random moment and a rerun into the same
//! directory, the manifest and the files always agree and their counts
//! (`count --cnf`, each file by itself) add up to the oracle's count. And a
//! split directory is all old or all new after a rerun or a signal, a
//! directory holding anything else is left alone, and a link to one stays
//! a link.

use crate::common;

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::cli::{await_handler, binary, entries, refused, run, send};
use knightsat::cnf_file::read_cnf_info;
use knightsat::count::count_recorded;
use proptest::prelude::*;

/// Splits `board` (`--start a1` or not) at `depth` into `dir`/X; with
/// `signal_after`, sends SIGTERM that long after the start (if it is still
/// running). Returns whether it finished.
fn split(dir: &Path, board: &str, start: bool, depth: usize, signal_after: Option<u64>) -> bool {
    let depth = depth.to_string();
    let mut args = vec!["cubes", "--board", board, "--depth", &depth, "--split", "X"];
    if start {
        args.extend(["--start", "a1"]);
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_knightsat"))
        .args(&args)
        .current_dir(dir)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    if let Some(after) = signal_after {
        let started = Instant::now();
        while child.try_wait().unwrap().is_none()
            && started.elapsed() < Duration::from_millis(after)
        {
            std::thread::sleep(Duration::from_millis(2));
        }
        // SAFETY: kill(2) on a child we own (a finished one ignores it).
        unsafe {
            libc::kill(i32::try_from(child.id()).unwrap(), libc::SIGTERM);
        }
    }
    let status = child.wait().unwrap();
    // Before the handler is in place (the first moments, before any file)
    // the signal ends the process itself.
    let stopped = status.code() == Some(143) || status.signal() == Some(libc::SIGTERM);
    match status.code() {
        Some(0) => true,
        _ if stopped && signal_after.is_some() => false,
        _ => panic!("{args:?}: {status}"),
    }
}

/// The split in `dir`/X, checked whole, with the sum of its files' counts.
fn split_total(dir: &Path) -> Result<(Vec<String>, u64), TestCaseError> {
    let x = dir.join("X");
    let cubes = common::split_in(&x).map_err(TestCaseError::fail)?;
    let mut total = 0;
    for i in 1..=cubes.len() {
        let file = std::fs::File::open(x.join(format!("cube-{i:06}.cnf"))).unwrap();
        let info = read_cnf_info(std::io::BufReader::new(file)).unwrap();
        total += count_recorded(&info, &knightsat::solve::Request::default()).unwrap();
    }
    let mut entries: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    entries.sort();
    prop_assert_eq!(entries, ["X"], "nothing beside the split");
    Ok((cubes, total))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 12,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn split_files_agree_and_add_up_after_signals_and_reruns(
        (rows, cols) in proptest::sample::select(vec![(3, 4), (4, 4), (4, 5), (3, 7), (5, 5)]),
        start in any::<bool>(),
        first in 1..=3usize,
        second in 1..=4usize,
        signal_after in 0..60u64,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let board = format!("{rows}x{cols}");
        let oracle = common::count_tours(rows, cols, false, start.then_some(0));
        prop_assert!(split(dir.path(), &board, start, first, None));
        let (old, total) = split_total(dir.path())?;
        prop_assert_eq!(total, oracle);
        let finished = split(dir.path(), &board, start, second, Some(signal_after));
        let (after, total) = split_total(dir.path())?;
        prop_assert_eq!(total, oracle);
        prop_assert!(split(dir.path(), &board, start, second, None));
        let (new, total) = split_total(dir.path())?;
        prop_assert_eq!(total, oracle);
        let depth = second.min(rows * cols - 1);
        prop_assert!(new.iter().all(|cube| cube.split(' ').count() == depth + 1));
        // Stopped before the swap, the old split; after it (or finished),
        // the new one; never a mix.
        prop_assert!(after == new || (!finished && after == old));
    }
}

#[test]
fn a_split_directory_is_all_old_or_all_new_after_a_rerun_or_a_signal() {
    let dir = tempfile::tempdir().unwrap();
    let split = |depth: &str, into: &str| {
        let args = ["cubes", "--size", "5", "--depth", depth, "--split", into];
        let (code, stderr) = run(&args, dir.path());
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
    };
    let x = dir.path().join("X");
    split("3", "X");
    assert_eq!(common::split_in(&x).unwrap().len(), 488);
    // A shallower split replaces the deeper one whole: no stale cube files.
    split("2", "X");
    let mut before = common::split_in(&x).unwrap();
    assert_eq!(before.len(), 168);
    // A signal at any moment of a deeper split (4176 files) leaves the old
    // split or the new one, never a mix, and nothing beside it.
    for delay in [30, 120, 400, 5000] {
        let mut child = Command::new(binary())
            .args(["cubes", "--size", "5", "--depth", "5", "--split", "X"])
            .current_dir(dir.path())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        await_handler(&child, libc::SIGTERM);
        let started = Instant::now();
        while child.try_wait().unwrap().is_none()
            && started.elapsed() < Duration::from_millis(delay)
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        send(&child, libc::SIGTERM);
        let status = child.wait().unwrap();
        assert!(matches!(status.code(), Some(0 | 143)), "{status}");
        let after = common::split_in(&x).unwrap();
        assert!(
            after == before || after.len() == 4176,
            "{delay} ms: {} cubes",
            after.len()
        );
        assert_eq!(entries(dir.path()), ["X"], "{delay} ms");
        before = after;
    }
    // A directory holding anything else is left alone.
    std::fs::write(x.join("notes.txt"), "mine").unwrap();
    refused(
        &["cubes", "--size", "5", "--depth", "1", "--split", "X"],
        dir.path(),
        "X holds notes.txt",
    );
    assert_eq!(
        std::fs::read_to_string(x.join("notes.txt")).unwrap(),
        "mine"
    );
    std::fs::remove_file(x.join("notes.txt")).unwrap();
    assert_eq!(common::split_in(&x).unwrap(), before);
    // A link to a split stays a link; its target is replaced.
    std::os::unix::fs::symlink("X", dir.path().join("L")).unwrap();
    split("1", "L");
    assert!(std::fs::symlink_metadata(dir.path().join("L"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(common::split_in(&x).unwrap().len(), 48);
}

/// New files and directories get 0666 and 0777 less the umask of the
/// process that writes them, as any program's do; one replaced keeps its
/// own permissions (the library's own test).
#[test]
fn new_files_and_directories_take_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    for (umask, file_mode, dir_mode) in [("027", 0o640, 0o750), ("002", 0o664, 0o775)] {
        let cnf = dir.path().join(format!("{umask}.cnf"));
        let split = dir.path().join(format!("{umask}-cubes"));
        let script = format!(
            "umask {umask} && \"$0\" encode --size 5 -o \"$1\" && \"$0\" cubes --size 5 --depth 2 --split \"$2\""
        );
        let status = Command::new("sh")
            .args(["-c", &script])
            .arg(binary())
            .arg(&cnf)
            .arg(&split)
            .status()
            .unwrap();
        assert!(status.success(), "umask {umask}: {status}");
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&cnf), file_mode, "umask {umask}: {}", cnf.display());
        assert_eq!(mode(&split), dir_mode, "umask {umask}: {}", split.display());
    }
}
