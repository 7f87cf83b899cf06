//! What must not outlive a run: temporary files and directories, and the
//! process groups of solver programs.
//!
//! Whoever creates such a thing registers it here for as long as it exists
//! ([`TempPath`], [`ProcessGroup`]); dropping the guard removes it in the
//! ordinary course. When the process is stopped early (a signal, a time
//! limit it gives up on), [`clean_up_now`] removes every registered path and
//! kills every registered group. The library neither watches for signals
//! nor exits: a program that does (the `knightsat` command, on SIGINT,
//! SIGTERM and SIGHUP) calls [`clean_up_now`] before it exits.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Everything registered and not yet released.
struct Registry {
    next: u64,
    paths: Vec<(u64, PathBuf)>,
    groups: Vec<(u64, i32)>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    next: 0,
    paths: Vec::new(),
    groups: Vec::new(),
});

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    // A panic while holding the lock leaves the lists intact: keep using them.
    REGISTRY
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A temporary file or directory, registered for removal if the run is
/// stopped early. Dropping the guard only unregisters it: the owner (say a
/// `tempfile` value) removes it in the ordinary course.
#[derive(Debug)]
pub struct TempPath {
    id: u64,
}

impl TempPath {
    /// Registers `path` (a file or a directory tree).
    pub(crate) fn register(path: &Path) -> TempPath {
        Self::add(&mut registry(), path)
    }

    /// Creates a temporary file or directory with `create` and registers
    /// it, holding the registry in between: a signal that arrives right
    /// after `create` finds it registered once its cleaner gets the
    /// registry, where registering afterwards would leave it behind.
    pub(crate) fn create<T: AsRef<Path>, E>(
        create: impl FnOnce() -> Result<T, E>,
    ) -> Result<(T, TempPath), E> {
        let mut registry = registry();
        let made = create()?;
        let registered = Self::add(&mut registry, made.as_ref());
        Ok((made, registered))
    }

    fn add(registry: &mut Registry, path: &Path) -> TempPath {
        registry.next += 1;
        let id = registry.next;
        registry.paths.push((id, path.to_path_buf()));
        TempPath { id }
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        registry().paths.retain(|(id, _)| *id != self.id);
    }
}

/// A child process that leads its own process group: dropping the guard
/// kills the whole group (whatever the child started and left behind), and
/// so does [`clean_up_now`].
#[derive(Debug)]
pub struct ProcessGroup {
    id: u64,
    group: i32,
}

impl ProcessGroup {
    /// Registers the group led by the child with process id `pid` (spawned
    /// with `process_group(0)`).
    pub(crate) fn register(pid: u32) -> ProcessGroup {
        let group = i32::try_from(pid).expect("process ids fit in pid_t");
        let mut registry = registry();
        registry.next += 1;
        let id = registry.next;
        registry.groups.push((id, group));
        ProcessGroup { id, group }
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        registry().groups.retain(|(id, _)| *id != self.id);
        kill_group(self.group);
    }
}

fn kill_group(group: i32) {
    // SAFETY: kill(2) with a negative pid signals a process group; it
    // touches no memory of ours.
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
}

/// Waits, after [`kill_group`], until the group's leader has exited and
/// no process of the group runs any more, so that nothing outlives the
/// process that is about to exit; gives up after a second, which SIGKILL
/// never needs. On Linux the leader is left to be reaped by whoever owns
/// it ([`platform::await_leader`](super::platform) says where not).
fn reap_group(group: i32) {
    super::platform::await_leader(group);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(1);
    while super::platform::group_runs(group) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Held while cleaning up, so that a second cleaner (the main thread
/// exiting because of the signal the signal thread is cleaning up after)
/// waits for the first instead of ending the process under it.
static CLEANING: Mutex<()> = Mutex::new(());

/// Runs `steps` with cleaning up held off: a clean-up that a signal starts
/// meanwhile waits until they are done, so that steps that must happen
/// together (renames that swap two directories) are never cut apart.
pub(crate) fn held_off<T>(steps: impl FnOnce() -> T) -> T {
    let _held = CLEANING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    steps()
}

/// Kills every registered process group and removes every registered path.
///
/// Not async-signal-safe (it locks, allocates and removes files): call it
/// from an ordinary thread, such as one that waits for signals and then
/// exits the process, never from a signal handler. A second call while one
/// is under way waits for the first to finish, so a thread that exits
/// because of the same signal does not end the process mid-cleanup.
pub fn clean_up_now() {
    let _cleaning = CLEANING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let (groups, paths) = {
        let mut registry = registry();
        (
            std::mem::take(&mut registry.groups),
            std::mem::take(&mut registry.paths),
        )
    };
    for &(_, group) in &groups {
        kill_group(group);
    }
    for &(_, group) in &groups {
        reap_group(group);
    }
    for (_, path) in paths {
        if path.is_dir() {
            // A directory may still be being filled by another thread: moved
            // out of its way first, nothing new lands in it while it goes.
            let mut doomed = path.clone().into_os_string();
            doomed.push(".removing");
            let doomed = PathBuf::from(doomed);
            let gone = if std::fs::rename(&path, &doomed).is_ok() {
                doomed
            } else {
                path
            };
            // A file whose creation was under way when the directory moved
            // lands in it after remove_dir_all has listed it, and the
            // directory is then not empty: it is removed again (once, in a
            // fresh-clone CI run, `.removing` was left behind).
            for _ in 0..20 {
                if std::fs::remove_dir_all(&gone).is_ok() || !gone.exists() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        } else {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// The start of the name of a directory this process makes with the
/// prefix `prefix`: the prefix, this process's id and a dash (random
/// letters follow), which [`clear_dead_dirs`] reads back.
pub(crate) fn owned_prefix(prefix: &str) -> String {
    format!("{prefix}{}-", std::process::id())
}

/// Removes from `parent` the directories named by [`owned_prefix`] with
/// `prefix` whose process died without removing them (SIGKILL, a power
/// cut, which no clean-up sees): those named with the id of a process
/// that no longer exists. A directory of a process still running, or of
/// another user's, stays.
pub(crate) fn clear_dead_dirs(parent: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let owner = name
            .to_str()
            .and_then(|name| name.strip_prefix(prefix))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<i32>().ok())
            .filter(|&pid| pid > 0);
        let is_dir = entry.file_type().is_ok_and(|kind| kind.is_dir());
        if let Some(pid) = owner.filter(|_| is_dir) {
            if !process_exists(pid) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}

/// Whether a process of id `pid` exists (kill(2) with no signal: one of
/// another user's answers EPERM, and exists).
fn process_exists(pid: i32) -> bool {
    // SAFETY: kill(2) with signal 0 only checks; it touches no memory.
    let alive = unsafe { libc::kill(pid, 0) } == 0;
    alive || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleaning_up_removes_registered_paths_and_kills_groups() {
        use std::os::unix::process::CommandExt;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("left-behind");
        std::fs::write(&file, "x").unwrap();
        let _file_guard = TempPath::register(&file);
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .process_group(0)
            .spawn()
            .unwrap();
        let group = ProcessGroup::register(child.id());
        clean_up_now();
        assert!(!file.exists());
        match child.wait() {
            Ok(status) => assert!(!status.success(), "the sleeper was killed: {status}"),
            // The portable fallback reaps the group's leader itself (no
            // /proc to tell its zombie from a live process): it is gone.
            Err(error) if crate::runtime::platform::uses_fallbacks() => {
                assert_eq!(error.raw_os_error(), Some(libc::ECHILD), "{error}");
                // SAFETY: kill(2) with signal 0 only checks.
                let exists = unsafe { libc::kill(child.id() as i32, 0) } == 0;
                assert!(!exists, "the sleeper is gone");
            }
            Err(error) => panic!("the sleeper was not waitable: {error}"),
        }
        drop(group);
        // A released path is not removed.
        let kept = dir.path().join("kept");
        std::fs::write(&kept, "x").unwrap();
        drop(TempPath::register(&kept));
        clean_up_now();
        assert!(kept.exists());
    }
}
