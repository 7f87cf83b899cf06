//! Reading the user's input files, where `-` means standard input, with
//! bounded memory.

use crate::runtime::RunError;
use std::io::{BufRead, Read};
use std::path::Path;

pub use crate::model::text::shown;

/// The largest text file read whole (a board drawing, a puzzle, a tour):
/// far beyond any real one (a tour of 2000x2000 squares is about 30 MB).
pub const MAX_TEXT_BYTES: u64 = 256 << 20;

/// Reads a whole text file, or standard input for `-`, of at most
/// [`MAX_TEXT_BYTES`].
pub fn read_text(path: &Path) -> Result<String, RunError> {
    let cannot = |error: std::io::Error| RunError::CannotRead {
        path: path.display().to_string(),
        error,
    };
    let mut bytes = Vec::new();
    open(path)?
        .take(MAX_TEXT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_TEXT_BYTES {
        return Err(cannot(std::io::Error::other(format!(
            "it is larger than {} MiB",
            MAX_TEXT_BYTES >> 20
        ))));
    }
    String::from_utf8(bytes).map_err(|_| cannot(std::io::Error::other("it is not UTF-8 text")))
}

/// UTF-8's byte-order mark, which editors on some systems write at the
/// start of a text file.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// Opens a file, or standard input for `-`, for buffered reading, past a
/// byte-order mark at its start; a directory is refused here rather than
/// failing oddly on the first read.
pub fn open(path: &Path) -> Result<Box<dyn BufRead>, RunError> {
    let cannot = |error: std::io::Error| RunError::CannotRead {
        path: path.display().to_string(),
        error,
    };
    let mut reader: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        if path.is_dir() {
            return Err(cannot(std::io::Error::from(
                std::io::ErrorKind::IsADirectory,
            )));
        }
        Box::new(std::io::BufReader::new(
            std::fs::File::open(path).map_err(cannot)?,
        ))
    };
    if reader
        .fill_buf()
        .map_err(cannot)?
        .starts_with(BYTE_ORDER_MARK)
    {
        reader.consume(BYTE_ORDER_MARK.len());
    }
    Ok(reader)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endless_input_is_refused_after_the_limit() {
        let error = read_text(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(error.contains("larger than"), "{error}");
        let error = read_text(Path::new("/")).unwrap_err().to_string();
        assert!(error.contains("cannot read /"), "{error}");
    }

    #[test]
    fn a_byte_order_mark_at_the_start_is_skipped_and_nowhere_else() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tour.txt");
        std::fs::write(&path, "\u{feff}a1 c2\u{feff}").unwrap();
        assert_eq!(read_text(&path).unwrap(), "a1 c2\u{feff}");
        std::fs::write(&path, "\u{feff}").unwrap();
        assert_eq!(read_text(&path).unwrap(), "");
    }
}
