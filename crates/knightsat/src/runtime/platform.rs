//! The few calls only Linux has, each beside the portable fallback that
//! other Unix systems (macOS, the BSDs) get: exchanging two directories in
//! one step, telling whether a process group still runs, and naming an
//! open descriptor.
//!
//! Both are compiled on Linux, so that the fallbacks are built and linted
//! with every build, and a build with debug assertions (the tests') run
//! with `KNIGHTSAT_PORTABLE_FALLBACKS=1` in its environment uses the
//! fallbacks instead: `scripts/test.sh` runs the whole test suite a second
//! time so, though only the tests that reach one of these calls: a test
//! build whose environment names a directory in
//! `KNIGHTSAT_FALLBACK_CALLERS` leaves there, the first time a process
//! asks whether to use the fallbacks, a file named for the test that runs
//! it (cargo-nextest's `NEXTEST_TEST_NAME`, which the processes a test
//! starts inherit). A release build never reads either variable. The rest of the
//! library needs Unix (`std::os::unix`: permissions, process groups, exit
//! signals), so Windows is not supported.

use std::io;
use std::path::Path;

/// The environment variable that makes a test build use the fallbacks on
/// Linux.
const PORTABLE_FALLBACKS: &str = "KNIGHTSAT_PORTABLE_FALLBACKS";

/// The environment variable naming the directory where a test build
/// records the tests that reach a call with a fallback.
const FALLBACK_CALLERS: &str = "KNIGHTSAT_FALLBACK_CALLERS";

/// Has the kernel end the program `command` starts when the thread that
/// starts it ends (Linux's `PR_SET_PDEATHSIG`, set in the child before
/// it runs the program), so that a SIGKILL of this process, which no
/// clean-up sees, leaves no solver program running in its own process
/// group. A parent that died before the call is caught by its id: the
/// program is then not run. The threads that start programs wait for
/// them, so only the end of the process ends them early. Other systems
/// have no such call: there a program may outlive a SIGKILL.
pub(crate) fn end_with_parent(command: &mut std::process::Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: getpid(2) touches no memory.
        let parent = unsafe { libc::getpid() };
        // SAFETY: between fork and exec the closure makes only the
        // async-signal-safe calls prctl(2) and getppid(2), and allocates
        // nothing.
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                    return Err(io::Error::last_os_error());
                }
                if libc::getppid() != parent {
                    return Err(io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

/// Whether the portable fallbacks stand in for the Linux calls: always
/// off Linux; on Linux only in a build with debug assertions whose
/// environment sets [`PORTABLE_FALLBACKS`] to 1 (read once).
// Elsewhere only a test asks (the answer is always yes there).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub(crate) fn uses_fallbacks() -> bool {
    static FORCED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if cfg!(not(target_os = "linux")) {
        return true;
    }
    if cfg!(debug_assertions) {
        record_caller();
    }
    cfg!(debug_assertions)
        && *FORCED
            .get_or_init(|| std::env::var_os(PORTABLE_FALLBACKS).is_some_and(|value| value == "1"))
}

/// Leaves a file named for the running test in the directory
/// [`FALLBACK_CALLERS`] names, once a process, where both it and
/// nextest's test name are in the environment: `scripts/test.sh` runs
/// again with the fallbacks forced exactly the tests it finds there. A
/// record that cannot be made panics, failing the test, rather than leave
/// the test out of that second run unseen.
fn record_caller() {
    static RECORDED: std::sync::Once = std::sync::Once::new();
    RECORDED.call_once(|| {
        let (Some(dir), Some(test)) = (
            std::env::var_os(FALLBACK_CALLERS),
            std::env::var_os("NEXTEST_TEST_NAME"),
        ) else {
            return;
        };
        let path = Path::new(&dir).join(test.to_string_lossy().replace('/', "_"));
        if let Err(error) = std::fs::File::create(&path) {
            let path = path.display();
            panic!("cannot record the test that reached a fallback in {path}: {error}");
        }
    });
}

/// Exchanges the directories `from` and `to` in one step where the system
/// can: `Ok(false)` where it cannot, and the caller moves them one after
/// the other.
pub(crate) fn exchange(from: &Path, to: &Path) -> io::Result<bool> {
    #[cfg(target_os = "linux")]
    if !uses_fallbacks() {
        return linux::exchange(from, to);
    }
    portable::exchange(from, to)
}

/// Waits until the leader of process group `group` has exited.
pub(crate) fn await_leader(group: i32) {
    #[cfg(target_os = "linux")]
    if !uses_fallbacks() {
        return linux::await_leader(group);
    }
    portable::await_leader(group);
}

/// Whether a process of process group `group` still runs.
pub(crate) fn group_runs(group: i32) -> bool {
    #[cfg(target_os = "linux")]
    if !uses_fallbacks() {
        return linux::group_runs(group);
    }
    portable::group_runs(group)
}

/// A path that opens the file behind this process's descriptor `fd` anew.
pub(crate) fn descriptor_name(fd: i32) -> String {
    #[cfg(target_os = "linux")]
    if !uses_fallbacks() {
        return linux::descriptor_name(fd);
    }
    portable::descriptor_name(fd)
}

#[cfg(target_os = "linux")]
mod linux {
    use std::io;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    /// Exchanges the directories `from` and `to` in one step
    /// (`renameat2` with `RENAME_EXCHANGE`): `Ok(false)` where the file
    /// system cannot, and the caller moves them one after the other.
    pub(crate) fn exchange(from: &Path, to: &Path) -> io::Result<bool> {
        let c_path = |path: &Path| {
            std::ffi::CString::new(path.as_os_str().as_bytes())
                .map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
        };
        let (from, to) = (c_path(from)?, c_path(to)?);
        // SAFETY: renameat2(2) reads two NUL-terminated paths that live until it returns.
        let exchanged = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                from.as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        };
        if exchanged == 0 {
            return Ok(true);
        }
        let error = io::Error::last_os_error();
        match error.raw_os_error() {
            Some(libc::EINVAL | libc::ENOSYS | libc::EOPNOTSUPP) => Ok(false),
            _ => Err(error),
        }
    }

    /// Waits until the leader of process group `group` has exited, leaving
    /// it waitable for its owner (`WNOWAIT`): /proc tells its zombie from
    /// the group's live processes.
    pub(crate) fn await_leader(group: i32) {
        // SAFETY: waitid(2) writes into the zeroed local `info`; a process
        // that is not our child (or is gone) gives ECHILD at once.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(
                libc::P_PID,
                group as libc::id_t,
                &raw mut info,
                libc::WEXITED | libc::WNOWAIT,
            );
        }
    }

    /// Whether a process of process group `group` is still running
    /// (zombies, which have exited, do not count), from /proc.
    pub(crate) fn group_runs(group: i32) -> bool {
        let Ok(processes) = std::fs::read_dir("/proc") else {
            return false;
        };
        processes.flatten().any(|entry| {
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                return false;
            };
            // pid (comm) state ppid pgrp …: the name may hold anything but ')'.
            let mut fields = stat
                .rsplit_once(')')
                .map_or("", |(_, rest)| rest)
                .split_whitespace();
            let state = fields.next().unwrap_or("Z");
            let pgrp = fields.nth(1).and_then(|field| field.parse::<i32>().ok());
            pgrp == Some(group) && !matches!(state, "Z" | "X")
        })
    }

    /// A path that opens the file behind this process's descriptor `fd`
    /// anew.
    pub(crate) fn descriptor_name(fd: i32) -> String {
        format!("/proc/self/fd/{fd}")
    }
}

mod portable {
    use std::io;
    use std::path::Path;

    /// No exchange in one step: the caller moves the directories one after
    /// the other (the target briefly absent, never mixed).
    // The signature of the Linux call it stands in for.
    #[allow(clippy::unnecessary_wraps)]
    pub(crate) fn exchange(_from: &Path, _to: &Path) -> io::Result<bool> {
        Ok(false)
    }

    /// Waits until the leader of process group `group` has exited and
    /// reaps it: without /proc a zombie cannot be told from a live
    /// process, and the leader's zombie would keep the group in being.
    /// Its owner's own wait then fails, which matters nowhere: this runs
    /// only as the process exits.
    pub(crate) fn await_leader(group: i32) {
        // SAFETY: waitpid(2) with a null status pointer writes nothing; a
        // process that is not our child (or is gone) gives ECHILD at once.
        unsafe {
            libc::waitpid(group, std::ptr::null_mut(), 0);
        }
    }

    /// Whether a process of group `group` still exists (kill(2) with no
    /// signal): its other members, reparented when the leader died, are
    /// reaped by init as SIGKILL ends them.
    pub(crate) fn group_runs(group: i32) -> bool {
        // SAFETY: kill(2) with signal 0 only checks; it touches no memory.
        unsafe { libc::kill(-group, 0) == 0 }
    }

    /// A path that opens the file behind this process's descriptor `fd`.
    pub(crate) fn descriptor_name(fd: i32) -> String {
        format!("/dev/fd/{fd}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Seek, Write};
    use std::os::fd::AsRawFd;
    #[cfg(target_os = "linux")]
    use std::os::unix::process::CommandExt;

    #[test]
    fn the_fallbacks_are_used_exactly_when_the_environment_says_so() {
        let asked = std::env::var_os(PORTABLE_FALLBACKS).is_some_and(|value| value == "1");
        assert_eq!(uses_fallbacks(), asked || cfg!(not(target_os = "linux")));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn each_fallback_answers_as_the_linux_call_does() {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(b"both names open this file").unwrap();
        file.rewind().unwrap();
        for name in [
            portable::descriptor_name(file.as_raw_fd()),
            linux::descriptor_name(file.as_raw_fd()),
        ] {
            let mut text = String::new();
            std::fs::File::open(&name)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            assert_eq!(text, "both names open this file", "{name}");
        }

        let mut sleeper = std::process::Command::new("sleep")
            .arg("30")
            .process_group(0)
            .spawn()
            .unwrap();
        let group = sleeper.id() as i32;
        assert!(portable::group_runs(group) && linux::group_runs(group));
        sleeper.kill().unwrap();
        // The Linux call waits for the leader's exit and leaves it waitable;
        // its zombie does not run.
        linux::await_leader(group);
        assert!(!linux::group_runs(group));
        assert!(!sleeper.wait().unwrap().success());
        assert!(!portable::group_runs(group) && !linux::group_runs(group));
    }

    #[test]
    fn exchange_swaps_two_directories_or_says_it_cannot() {
        let dir = tempfile::tempdir().unwrap();
        let (old, new) = (dir.path().join("old"), dir.path().join("new"));
        for (path, mark) in [(&old, "old"), (&new, "new")] {
            std::fs::create_dir(path).unwrap();
            std::fs::write(path.join("mark"), mark).unwrap();
        }
        let read = |path: &Path| std::fs::read_to_string(path.join("mark")).unwrap();
        assert!(!portable::exchange(&new, &old).unwrap());
        assert_eq!((read(&old), read(&new)), ("old".into(), "new".into()));
        #[cfg(target_os = "linux")]
        if linux::exchange(&new, &old).unwrap() {
            assert_eq!((read(&old), read(&new)), ("new".into(), "old".into()));
        }
    }
}
