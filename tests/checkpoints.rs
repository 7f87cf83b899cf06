//! `count --checkpoint DIR`: a frontier count killed outright (SIGKILL,
//! which no handler sees) goes on from its checkpoint to the published
//! count, parts too; a finished count leaves nothing; a checkpoint of
//! another count or version, cut short or with a byte changed is refused
//! in one line, exit 2, and left as it was.

use crate::common;

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::time::{Duration, Instant};

/// The published number of directed open tours of 6x6 (OEIS A165134).
fn open_6x6() -> String {
    let text = std::fs::read_to_string(common::cli::fixture("oeis/A165134.txt")).unwrap();
    text.lines()
        .find_map(|line| line.strip_prefix("6x6\t"))
        .unwrap()
        .to_string()
}

/// `args` with the checkpoint in `dir`, its states written at every
/// boundary.
fn with_checkpoint(args: &[&str], dir: &Path) -> Vec<String> {
    let mut all: Vec<String> = args.iter().map(ToString::to_string).collect();
    all.extend([
        "--checkpoint".to_string(),
        dir.display().to_string(),
        "--checkpoint-every".to_string(),
        "0.001".to_string(),
    ]);
    all
}

/// Runs `args` with the checkpoint in `dir` to its end: its exit code,
/// stdout and stderr.
fn run_with_checkpoint(args: &[&str], dir: &Path) -> (Option<i32>, String, String) {
    let output = common::cli::knightsat()
        .args(with_checkpoint(args, dir))
        .output()
        .unwrap();
    common::cli::outcome(&output)
}

/// Runs `args` with a checkpoint in `dir` and kills it outright once it
/// has saved states there.
fn killed_once_saved(args: &[&str], dir: &Path) {
    killed_once_written(args, dir, "states.checkpoint");
}

/// Runs `args` with a checkpoint in `dir` and kills it outright once it
/// has written the file `name` there.
fn killed_once_written(args: &[&str], dir: &Path, name: &str) {
    let (status, _) = signalled_once_written(args, dir, name, libc::SIGKILL);
    assert_eq!(status.signal(), Some(libc::SIGKILL), "{args:?}: {status}");
}

/// Runs `args` with a checkpoint in `dir` and sends it `signal` once it
/// has written the file `name` there: how it ended, and its stderr.
fn signalled_once_written(
    args: &[&str],
    dir: &Path,
    name: &str,
    signal: i32,
) -> (std::process::ExitStatus, String) {
    signalled_once_there(&with_checkpoint(args, dir), &dir.join(name), signal)
}

/// Runs knightsat with `args` and sends it `signal` once `path` is
/// there: how it ended, and its stderr.
fn signalled_once_there(
    args: &[String],
    path: &Path,
    signal: i32,
) -> (std::process::ExitStatus, String) {
    let child = std::process::Command::new(common::cli::binary())
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !path.exists() && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(1));
    }
    common::cli::send(&child, signal);
    let output = child.wait_with_output().unwrap();
    assert!(path.exists(), "{args:?}: no {} made", path.display());
    (
        output.status,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Ctrl-C or SIGTERM once states are saved: the count ends as the signal
/// says (130, 143), says that the checkpoint keeps what was done, and
/// the same command goes on from it to the published count.
#[test]
fn a_count_ended_by_a_signal_says_its_checkpoint_is_kept() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("checkpoint");
    let args = ["count", "--size", "6"];
    let mut said = 0;
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let (status, stderr) = signalled_once_written(&args, &dir, "states.checkpoint", signal);
        assert_eq!(status.code(), Some(128 + signal), "{stderr}");
        assert!(
            stderr.contains("keeps what was done; the same command goes on from it"),
            "{stderr}"
        );
        said += 1;
        assert_eq!(gone_on(&args, &dir).trim(), open_6x6());
    }
    assert_eq!(said, 2);
}

/// A count stopped before its first save, by a signal or by its
/// `--timeout`, says that its checkpoint holds nothing yet and that the
/// same command starts over, and leaves no checkpoint file.
#[test]
fn a_count_stopped_before_its_first_save_says_its_checkpoint_holds_nothing() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("checkpoint");
    let never: Vec<String> = ["count", "--size", "7", "--checkpoint"]
        .into_iter()
        .map(String::from)
        .chain([dir.display().to_string()])
        .chain(["--checkpoint-every", "3600"].map(String::from))
        .collect();
    let nothing = "holds nothing yet";
    // The directory is made when the count opens its checkpoint, long
    // before its first save.
    let (status, stderr) = signalled_once_there(&never, &dir, libc::SIGTERM);
    assert_eq!(status.code(), Some(128 + libc::SIGTERM), "{stderr}");
    assert!(stderr.contains(nothing), "{stderr}");
    assert!(!stderr.contains("keeps what was done"), "{stderr}");
    assert!(read_all(&dir).is_empty(), "{:?}", read_all(&dir));
    let timed_out = common::cli::knightsat()
        .args(&never)
        .args(["--timeout", "0.5"])
        .output()
        .unwrap();
    let (code, _, stderr) = common::cli::outcome(&timed_out);
    assert_ne!(code, Some(0), "{stderr}");
    assert!(stderr.contains(nothing), "{stderr}");
    assert!(read_all(&dir).is_empty(), "{:?}", read_all(&dir));
}

/// Runs `args` with the checkpoint in `dir` to its end: its stdout, once
/// it said it went on from the checkpoint, and left nothing behind.
fn gone_on(args: &[&str], dir: &Path) -> String {
    let (code, stdout, stderr) = run_with_checkpoint(args, dir);
    assert_eq!(code, Some(0), "{args:?}: {stderr}");
    assert!(stderr.contains("checkpoint: going on from"), "{stderr}");
    assert!(!dir.exists(), "{args:?}: the checkpoint was left behind");
    stdout
}

/// A count of the open 6x6 tours killed once it saved its states, then
/// run again, gives the published count, and its checkpoint is gone; and
/// so do two parts, each killed and gone on, added up by `sum`.
#[test]
fn a_count_killed_outright_goes_on_from_its_checkpoint_to_the_published_count() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("checkpoint");
    let whole = ["count", "--size", "6"];
    killed_once_saved(&whole, &dir);
    assert_eq!(gone_on(&whole, &dir).trim(), open_6x6());
    let mut files = Vec::new();
    for part in ["1/2", "2/2"] {
        let args = ["count", "--size", "6", "--part", part];
        killed_once_saved(&args, &dir);
        let lines = gone_on(&args, &dir);
        let file = parent.path().join(format!("part-{}", &part[..1]));
        std::fs::write(&file, lines).unwrap();
        files.push(file);
    }
    let sum = common::cli::knightsat()
        .arg("sum")
        .args(&files)
        .output()
        .unwrap();
    let (code, stdout, stderr) = common::cli::outcome(&sum);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout.trim(), open_6x6());
}

/// Refuses `args` with the checkpoint in `dir`: exit 2, one line saying
/// `words`, and the checkpoint as it was.
fn refused_with(args: &[&str], dir: &Path, words: &str) {
    let before = read_all(dir);
    let (code, _, stderr) = run_with_checkpoint(args, dir);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains(words), "{stderr} does not say {words}");
    assert_eq!(read_all(dir), before, "the refused checkpoint was changed");
}

/// Every file in `dir`, named, with its bytes.
fn read_all(dir: &Path) -> Vec<(String, Vec<u8>)> {
    common::cli::entries(dir)
        .into_iter()
        .map(|name| {
            let bytes = std::fs::read(dir.join(&name)).unwrap();
            (name, bytes)
        })
        .collect()
}

/// A copy of the checkpoint `from` in `to`, its file `name` changed by
/// `change`.
fn changed_copy(from: &Path, to: &Path, name: &str, mut change: impl FnMut(&mut Vec<u8>)) {
    std::fs::create_dir_all(to).unwrap();
    for (file, mut bytes) in read_all(from) {
        if file == name {
            change(&mut bytes);
        }
        std::fs::write(to.join(file), bytes).unwrap();
    }
}

/// A checkpoint of another count (another problem, or a part of it), of
/// another version, cut short, or with one byte changed, in either file,
/// is refused in one line, exit 2, and left alone.
#[test]
fn a_checkpoint_of_another_count_or_version_cut_short_or_changed_is_refused() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("checkpoint");
    let args = ["count", "--size", "6"];
    killed_once_saved(&args, &dir);
    refused_with(
        &["count", "--size", "6", "--closed"],
        &dir,
        "of another count",
    );
    refused_with(
        &["count", "--size", "6", "--part", "1/2"],
        &dir,
        "of another count",
    );
    let version = |bytes: &mut Vec<u8>| {
        let at = bytes.windows(8).position(|w| w == b"version ").unwrap();
        bytes[at + 8] = b'9';
    };
    let copy = parent.path().join("version");
    changed_copy(&dir, &copy, "states.checkpoint", version);
    refused_with(&args, &copy, "written by knightsat 9");
    let copy = parent.path().join("cut");
    changed_copy(&dir, &copy, "states.checkpoint", |bytes| {
        bytes.truncate(bytes.len() / 2);
    });
    refused_with(&args, &copy, "damaged");
    let copy = parent.path().join("byte");
    changed_copy(&dir, &copy, "states.checkpoint", |bytes| {
        let at = bytes.len() * 3 / 4;
        bytes[at] ^= 1;
    });
    refused_with(&args, &copy, "damaged (its checksum does not match)");
    // The file of finished pieces, once one is: a digit of its count.
    std::fs::remove_dir_all(&dir).unwrap();
    killed_once_written(&args, &dir, "finished.checkpoint");
    let copy = parent.path().join("finished");
    changed_copy(&dir, &copy, "finished.checkpoint", |bytes| {
        let at = bytes.iter().position(|&b| b == b'\t').unwrap() + 1;
        bytes[at] = if bytes[at] == b'1' { b'2' } else { b'1' };
    });
    refused_with(&args, &copy, "damaged (its checksum does not match)");
    // And the checkpoint itself still goes on to the count.
    assert_eq!(gone_on(&args, &dir).trim(), open_6x6());
}

/// Only the frontier counter keeps a checkpoint: a count by any other
/// route is refused in one line before any work.
#[test]
fn a_checkpoint_of_a_count_by_another_method_is_refused() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("checkpoint");
    for method in ["sat", "backtrack"] {
        let args = ["count", "--size", "5", "--method", method];
        let (code, _, stderr) = run_with_checkpoint(&args, &dir);
        assert_eq!(code, Some(2), "{stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("--checkpoint is kept by the frontier counter"),
            "{stderr}"
        );
        assert!(!dir.exists());
    }
}
