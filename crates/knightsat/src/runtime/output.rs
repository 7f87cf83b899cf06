//! Writing output files so that they are complete or absent.
//!
//! A regular file is written into a temporary file beside it and renamed
//! over it only once complete, keeping the old file's permissions (a new
//! file gets 0666 less the umask, as any program's would). A symbolic link
//! to a regular file keeps being a link: its target is replaced. Streams
//! and devices (`/dev/stdout`, `/dev/fd/N`, `/dev/null`, a named pipe, a
//! terminal) are written directly, since they cannot be replaced. The
//! temporary file is registered with [`cleanup`](crate::runtime::cleanup), so a run
//! stopped by a signal leaves nothing behind either.

use crate::runtime::RunError;
use std::fs::File;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::runtime::cleanup::{self, TempPath};
use crate::runtime::platform;

/// A file being written: complete under its name after
/// [`commit`](PendingFile::commit), gone if dropped before.
#[derive(Debug)]
pub struct PendingFile {
    /// The name the user gave, for messages.
    shown: PathBuf,
    kind: Pending,
}

#[derive(Debug)]
enum Pending {
    /// A stream or device, written in place.
    Direct(File),
    /// A temporary file to rename onto `target`, with the `mode` of the
    /// file it replaces.
    Replace {
        temp: tempfile::NamedTempFile,
        target: PathBuf,
        mode: Option<u32>,
        _registered: TempPath,
    },
}

impl PendingFile {
    /// Starts writing `path`.
    pub(crate) fn create(path: &Path) -> Result<PendingFile, RunError> {
        let fail = |error: io::Error| RunError::io(format!("writing {}", path.display()), error);
        if let Some(fd) = descriptor_path(path) {
            return Ok(PendingFile {
                shown: path.to_path_buf(),
                kind: Pending::Direct(duplicate(fd).map_err(fail)?),
            });
        }
        let target = match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(path)
                .map_err(|_| fail(io::Error::other("a symbolic link to nowhere")))?,
            _ => path.to_path_buf(),
        };
        let existing = std::fs::metadata(&target).ok();
        if existing.as_ref().is_some_and(|meta| !meta.is_file()) {
            if existing.as_ref().is_some_and(std::fs::Metadata::is_dir) {
                return Err(fail(io::Error::from_raw_os_error(libc::EISDIR)));
            }
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(&target)
                .map_err(fail)?;
            return Ok(PendingFile {
                shown: path.to_path_buf(),
                kind: Pending::Direct(file),
            });
        }
        let dir = match target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        if !dir.is_dir() {
            return Err(fail(io::Error::from_raw_os_error(libc::ENOENT)));
        }
        let name = target.file_name().map_or_else(
            || "output".into(),
            |name| name.to_string_lossy().into_owned(),
        );
        // A new file gets what any new file gets, 0666 less the umask,
        // which the system applies as it creates the file (so nothing
        // reads the umask); a file replaced keeps its own.
        let (temp, registered) = TempPath::create(|| {
            tempfile::Builder::new()
                .prefix(&format!(".{name}."))
                .suffix(".knightsat-tmp")
                .permissions(std::fs::Permissions::from_mode(0o666))
                .tempfile_in(dir)
        })
        .map_err(|error| fail(plain_os_error(&error)))?;
        let mode = existing.map(|meta| meta.permissions().mode());
        Ok(PendingFile {
            shown: path.to_path_buf(),
            kind: Pending::Replace {
                temp,
                target,
                mode,
                _registered: registered,
            },
        })
    }

    /// The file to write into.
    pub(crate) fn file(&mut self) -> &mut File {
        match &mut self.kind {
            Pending::Direct(file) => file,
            Pending::Replace { temp, .. } => temp.as_file_mut(),
        }
    }

    /// Puts the complete file under its name.
    pub(crate) fn commit(self) -> Result<(), RunError> {
        let fail =
            |error: io::Error| RunError::io(format!("writing {}", self.shown.display()), error);
        match self.kind {
            Pending::Direct(_) => Ok(()),
            Pending::Replace {
                temp,
                target,
                mode,
                _registered,
            } => {
                if let Some(mode) = mode {
                    temp.as_file()
                        .set_permissions(std::fs::Permissions::from_mode(mode))
                        .map_err(fail)?;
                }
                temp.persist(&target).map_err(|error| fail(error.error))?;
                Ok(())
            }
        }
    }
}

/// Commits several files as one: with every target directory locked
/// (`flock`), so that concurrent runs writing the same names never leave a
/// mix of one run's files and another's.
pub(crate) fn commit_together(files: Vec<PendingFile>) -> Result<(), RunError> {
    let mut dirs: Vec<PathBuf> = files
        .iter()
        .filter_map(|pending| match &pending.kind {
            Pending::Replace { target, .. } => target.parent().map(|dir| {
                if dir.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    dir.to_path_buf()
                }
            }),
            Pending::Direct(_) => None,
        })
        .filter_map(|dir| std::fs::canonicalize(dir).ok())
        .collect();
    dirs.sort();
    dirs.dedup();
    let mut locks = Vec::with_capacity(dirs.len());
    for dir in &dirs {
        let handle =
            File::open(dir).map_err(|e| RunError::io(format!("locking {}", dir.display()), e))?;
        handle
            .lock()
            .map_err(|e| RunError::io(format!("locking {}", dir.display()), e))?;
        locks.push(handle);
    }
    for file in files {
        file.commit()?;
    }
    drop(locks);
    Ok(())
}

/// Writes a file through `write`: complete under `path`, or not at all.
pub(crate) fn write_atomically<T, E: From<RunError>>(
    path: &Path,
    write: impl FnOnce(&mut File) -> Result<T, E>,
) -> Result<T, E> {
    let mut pending = PendingFile::create(path)?;
    let result = write(pending.file())?;
    pending.commit()?;
    Ok(result)
}

/// Writes a directory through `fill`, which gets an empty directory to
/// fill: complete under `dir`, or not at all, and never a mix of an old and
/// a new one. It is built beside `dir` (registered with
/// [`cleanup`](crate::runtime::cleanup), so a signal removes it) and then swapped
/// in: an existing `dir` is exchanged for it in one step where the system
/// can ([`platform::exchange`]; elsewhere it is renamed aside first,
/// so that `dir` is briefly absent but never mixed) and then removed. An
/// existing `dir` is replaced only when every entry in it is one that
/// `replaceable` accepts (what an earlier run wrote); otherwise it is left
/// alone and the run refused ([`RunError::DirectoryNotOurs`]). A symbolic
/// link to a directory keeps being a link: its target is replaced. The new
/// directory keeps the old one's permissions (a new one gets 0777 less the
/// umask).
pub(crate) fn write_directory_atomically<T, E: From<RunError>>(
    dir: &Path,
    replaceable: impl Fn(&str) -> bool,
    fill: impl FnOnce(&Path) -> Result<T, E>,
) -> Result<T, E> {
    let fail =
        |error: io::Error| E::from(RunError::io(format!("writing {}", dir.display()), error));
    let target = match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(dir)
            .map_err(|_| fail(io::Error::other("a symbolic link to nowhere")))?,
        _ => std::path::absolute(dir).map_err(fail)?,
    };
    let existing = match std::fs::metadata(&target) {
        Ok(meta) if meta.is_dir() => Some(meta),
        Ok(_) => return Err(fail(io::Error::from_raw_os_error(libc::ENOTDIR))),
        Err(error) if error.kind() == io::ErrorKind::NotFound => None,
        Err(error) => return Err(fail(error)),
    };
    if existing.is_some() {
        for entry in std::fs::read_dir(&target).map_err(fail)? {
            let name = entry.map_err(fail)?.file_name();
            let name = name.to_string_lossy();
            if !replaceable(&name) {
                return Err(RunError::DirectoryNotOurs {
                    dir: dir.display().to_string(),
                    entry: crate::model::text::shown(&name),
                }
                .into());
            }
        }
    }
    let (Some(parent), Some(name)) = (target.parent(), target.file_name()) else {
        return Err(fail(io::Error::other("not a name for a new directory")));
    };
    std::fs::create_dir_all(parent).map_err(fail)?;
    // A new directory gets 0777 less the umask, as in `create` above.
    let (temp, registered) = TempPath::create(|| {
        tempfile::Builder::new()
            .prefix(&format!(".{}.", name.to_string_lossy()))
            .suffix(".knightsat-tmp")
            .permissions(std::fs::Permissions::from_mode(0o777))
            .tempdir_in(parent)
    })
    .map_err(|error| fail(plain_os_error(&error)))?;
    let result = fill(temp.path())?;
    if let Some(meta) = &existing {
        std::fs::set_permissions(temp.path(), meta.permissions()).map_err(fail)?;
    }
    let built = temp.keep();
    let swapped = if existing.is_some() {
        swap_in(&built, &target)
    } else {
        std::fs::rename(&built, &target)
    };
    if let Err(error) = swapped {
        let _ = std::fs::remove_dir_all(&built);
        return Err(fail(error));
    }
    // `built` now holds the old directory, if there was one.
    let _ = std::fs::remove_dir_all(&built);
    drop(registered);
    Ok(result)
}

/// Puts the directory `built` in place of the directory `target`, leaving
/// the old one at `built`: in one step where the file system can.
fn swap_in(built: &Path, target: &Path) -> io::Result<()> {
    if platform::exchange(built, target)? {
        return Ok(());
    }
    // No exchange here: the old directory aside, the new one in, the old
    // one where the new one was. A signal's clean-up waits for the three
    // renames: between two of them it would remove the new directory
    // (registered at `built`) or see the old one come back at `built`
    // after it had moved that path away, and leave it behind.
    let mut aside = built.as_os_str().to_owned();
    aside.push(".old");
    let aside = PathBuf::from(aside);
    let _registered = TempPath::register(&aside);
    cleanup::held_off(|| {
        std::fs::rename(target, &aside)?;
        if let Err(error) = std::fs::rename(built, target) {
            let _ = std::fs::rename(&aside, target);
            return Err(error);
        }
        std::fs::rename(&aside, built)
    })
}

/// Whether two paths name the same file: the same path once made absolute,
/// or the same file on disk.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let absolute = |path: &Path| std::path::absolute(path).ok();
    if absolute(a).is_some() && absolute(a) == absolute(b) {
        return true;
    }
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// The descriptor a path names when it is one of this process's own
/// (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`): writing
/// there means writing to that descriptor, wherever it points.
fn descriptor_path(path: &Path) -> Option<i32> {
    let text = path.to_str()?;
    match text {
        "/dev/stdout" => Some(1),
        "/dev/stderr" => Some(2),
        _ => text
            .strip_prefix("/dev/fd/")
            .or_else(|| text.strip_prefix("/proc/self/fd/"))
            .and_then(|n| n.parse().ok()),
    }
}

/// A new handle on descriptor `fd`, sharing its offset and flags.
fn duplicate(fd: i32) -> io::Result<File> {
    use std::os::fd::FromRawFd;
    // SAFETY: fcntl(2) with F_DUPFD_CLOEXEC returns a new descriptor or
    // -1; the new one is ours.
    let copy = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
    if copy < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `copy` is a fresh descriptor owned by nobody else.
    Ok(unsafe { File::from_raw_fd(copy) })
}

/// The operating system's error without the temporary file's name, which
/// `tempfile` adds and which means nothing to the user.
fn plain_os_error(error: &io::Error) -> io::Error {
    let code = error.raw_os_error().or_else(|| {
        error
            .get_ref()
            .and_then(|inner| inner.source())
            .and_then(|source| source.downcast_ref::<io::Error>())
            .and_then(io::Error::raw_os_error)
    });
    code.map_or_else(
        || io::Error::from(error.kind()),
        io::Error::from_raw_os_error,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn write(path: &Path, text: &str) -> Result<(), RunError> {
        write_atomically(path, |file| {
            file.write_all(text.as_bytes())
                .map_err(|e| RunError::io("test", e))
        })
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.cnf");
        std::fs::write(&path, "OLD").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        let failed: Result<(), RunError> = write_atomically(&path, |file| {
            file.write_all(b"half").unwrap();
            Err(RunError::Stopped)
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "OLD");
        write(&path, "NEW").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "NEW");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the old file's permissions are kept");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "nothing but the file: {names:?}");
    }

    #[test]
    fn a_link_to_a_file_stays_a_link_and_its_target_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.cnf");
        let link = dir.path().join("link.cnf");
        std::fs::write(&target, "OLD").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write(&link, "NEW").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "NEW");
    }

    #[test]
    fn a_missing_directory_is_named_as_the_user_wrote_it() {
        let message = write(Path::new("/no/such/dir/out.cnf"), "x")
            .unwrap_err()
            .to_string();
        assert!(message.contains("/no/such/dir/out.cnf"), "{message}");
        assert!(!message.contains("knightsat-tmp"), "{message}");
    }

    #[test]
    fn the_same_file_is_recognised_by_path_and_by_inode() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        assert!(same_file(&a, &dir.path().join(".").join("a")));
        std::fs::write(&a, "x").unwrap();
        let b = dir.path().join("b");
        std::fs::hard_link(&a, &b).unwrap();
        assert!(same_file(&a, &b));
        assert!(!same_file(&a, &dir.path().join("c")));
    }
}
