//! Running the `knightsat` binary from tests, and reading what it prints
//! and leaves behind.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The longest any one run of the binary may take in a test: a run that
/// would never end (as `count` on a board of millions of squares once did)
/// is killed and fails its test, instead of holding the whole suite until
/// CI's own limit.
const RUN_LIMIT: std::time::Duration = std::time::Duration::from_secs(600);

/// The binary under test, killed if it runs past [`RUN_LIMIT`].
pub fn knightsat() -> Command {
    let mut command = Command::cargo_bin("knightsat").unwrap();
    command.timeout(RUN_LIMIT);
    command
}

/// Asserts that the binary, run in `dir` with `args`, refuses them: one
/// line on stderr containing `words`, exit status 2, no panic. The line,
/// for further checks.
pub fn refused(args: &[&str], dir: &std::path::Path, words: &str) -> String {
    let output = knightsat().args(args).current_dir(dir).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.contains(words), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    stderr.into_owned()
}

/// What a successful run prints on stdout.
pub fn stdout_bytes(args: &[&str]) -> Vec<u8> {
    knightsat()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone()
}

/// What a successful run prints on stdout, as text.
pub fn stdout_of(args: &[&str]) -> String {
    String::from_utf8(stdout_bytes(args)).unwrap()
}

/// What a run with stderr on a terminal printed.
pub struct TerminalRun {
    /// Whether the run succeeded.
    pub success: bool,
    /// Its stdout (a pipe).
    pub stdout: String,
    /// Everything it wrote to the terminal (stderr), escapes included.
    pub terminal: String,
}

/// Runs the binary with stderr on a pseudo-terminal of 120 columns, as at
/// a user's terminal, and stdout on a pipe.
pub fn with_stderr_on_a_terminal(args: &[&str]) -> TerminalRun {
    use std::io::Read;
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::process::Stdio;

    let (mut master, mut slave) = (-1, -1);
    let size = libc::winsize {
        ws_row: 40,
        ws_col: 120,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: openpty writes two descriptors into the integers it is given
    // and reads the window size; both pointers are valid for the call.
    let opened = unsafe {
        libc::openpty(
            &raw mut master,
            &raw mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            &raw const size,
        )
    };
    assert_eq!(opened, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: openpty succeeded, so both are open descriptors owned by no one else.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    // The command, and with it the parent's copy of the terminal's slave
    // end, is gone after this statement: the master reads to the end once
    // the child exits.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_knightsat"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(slave))
        .spawn()
        .unwrap();
    let mut terminal = std::fs::File::from(master);
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let mut buffer = [0u8; 4096];
        // Linux answers EIO at the end of a pseudo-terminal whose other end closed.
        while let Ok(read @ 1..) = terminal.read(&mut buffer) {
            bytes.extend_from_slice(&buffer[..read]);
        }
        bytes
    });
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let success = child.wait().unwrap().success();
    TerminalRun {
        success,
        stdout,
        terminal: String::from_utf8_lossy(&reader.join().unwrap()).into_owned(),
    }
}

/// The file at `path` under `fixtures/`.
pub fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(path)
}

/// Square index (rank * cols + file) of a name like "c2", parsed independently.
pub fn index_of(name: &str, cols: usize) -> usize {
    let file = (name.as_bytes()[0] - b'a') as usize;
    let rank: usize = name[1..].parse().unwrap();
    (rank - 1) * cols + file
}

/// The squares of a tour printed by `--format moves`, by [`index_of`].
pub fn parse_moves(line: &str, cols: usize) -> Vec<usize> {
    line.split_whitespace().map(|n| index_of(n, cols)).collect()
}

/// `decode --format moves --cnf CNF RESULT`: the tour's words (squares or
/// vertex numbers); panics where decode fails.
pub fn decoded_words(cnf: &Path, result: &Path) -> Vec<String> {
    let moves = knightsat()
        .args(["decode", "--format", "moves", "--cnf"])
        .arg(cnf)
        .arg(result)
        .output()
        .unwrap();
    assert!(
        moves.status.success(),
        "{}",
        String::from_utf8_lossy(&moves.stderr)
    );
    String::from_utf8(moves.stdout)
        .unwrap()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// The `minisat` program's answer to `cnf` (written beside it), [`decoded_words`].
pub fn minisat_decoded(cnf: &Path) -> Vec<String> {
    let result = cnf.with_extension("minisat");
    std::process::Command::new("minisat")
        .arg(cnf)
        .arg(&result)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    decoded_words(cnf, &result)
}

/// `decode --cnf CNF` of `solver_output` given on stdin, to be asserted on.
pub fn decode_text(cnf: &Path, solver_output: &str) -> assert_cmd::assert::Assert {
    knightsat()
        .args(["decode", "--cnf"])
        .arg(cnf)
        .write_stdin(solver_output.to_string())
        .assert()
}

/// The binary's path, for tests that need a raw process (signals, pipes).
pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_knightsat"))
}

/// Runs the binary in `dir` with `args`; its exit code and stderr.
pub fn run(args: &[&str], dir: &Path) -> (Option<i32>, String) {
    let output = knightsat().args(args).current_dir(dir).output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).to_string(),
    )
}

/// What a finished process said: its exit code, stdout and stderr.
pub fn outcome(output: &std::process::Output) -> (Option<i32>, String, String) {
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The names in `dir`, sorted: what a run left behind.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Sends `signal` to a running process.
/// Waits (up to 20 s) until `child` catches `signal` (its handler is
/// installed, as /proc says), so that a test sending it tests what the
/// handler does, not the moment before there is one, which a loaded
/// machine can stretch past any fixed delay.
pub fn await_handler(child: &std::process::Child, signal: i32) {
    let status = format!("/proc/{}/status", child.id());
    let bit = 1u64 << (signal - 1);
    let started = std::time::Instant::now();
    while started.elapsed() < std::time::Duration::from_secs(20) {
        let caught = std::fs::read_to_string(&status).ok().and_then(|text| {
            let mask = text.lines().find_map(|l| l.strip_prefix("SigCgt:"))?;
            u64::from_str_radix(mask.trim(), 16).ok()
        });
        match caught {
            Some(mask) if mask & bit != 0 => return,
            // Gone, or no such file: nothing left to wait for.
            None if !std::path::Path::new(&status).exists() => return,
            _ => std::thread::sleep(std::time::Duration::from_millis(1)),
        }
    }
}

pub fn send(child: &std::process::Child, signal: i32) {
    // SAFETY: kill(2) on a child we own.
    unsafe {
        libc::kill(i32::try_from(child.id()).unwrap(), signal);
    }
}

/// `count` of `board`'s closed tours from a1 by the frontier counter in
/// `order`, within `budget_mib`, spilling to `spill_dir`.
pub fn frontier_closed(board: &str, order: &str, budget_mib: u64, spill_dir: &Path) -> Vec<String> {
    let args = [
        "count",
        "--board",
        board,
        "--closed",
        "--start",
        "a1",
        "--method",
        "frontier",
        "--frontier-order",
        order,
        "--memory-budget",
        &budget_mib.to_string(),
        "--spill-dir",
        spill_dir.to_str().unwrap(),
    ];
    args.map(String::from).to_vec()
}
