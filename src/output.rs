//! Writing output files so that they are complete or absent.

use std::fs::File;
use std::path::Path;

use crate::error::Error;

/// Writes a file through `write` atomically: into a temporary file beside
/// `path`, renamed onto `path` only once `write` has succeeded, so a failed
/// or interrupted run never leaves a truncated file under that name.
///
/// A path that exists and is not a regular file (`/dev/null`, a named pipe)
/// is written directly: renaming onto it would replace the device.
pub fn write_atomically<T>(
    path: &Path,
    write: impl FnOnce(&mut File) -> Result<T, Error>,
) -> Result<T, Error> {
    let context = || format!("writing {}", path.display());
    if std::fs::metadata(path).is_ok_and(|meta| !meta.is_file()) {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| Error::io(context(), e))?;
        return write(&mut file);
    }
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::io(context(), e))?;
    let result = write(file.as_file_mut())?;
    #[cfg(unix)]
    {
        // Temporary files are created private; the result is an ordinary output file.
        use std::os::unix::fs::PermissionsExt;
        file.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))
            .map_err(|e| Error::io(context(), e))?;
    }
    file.persist(path)
        .map_err(|e| Error::io(context(), e.error))?;
    Ok(result)
}
