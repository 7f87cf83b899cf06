//! Reading the user's input files, where `-` means standard input.

use std::io::Read;
use std::path::Path;

use crate::error::Error;

/// Reads a whole text file, or standard input for `-`.
pub fn read_text(path: &Path) -> Result<String, Error> {
    let mut text = String::new();
    let result = if path.as_os_str() == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read_to_string(path).map(|read| text = read)
    };
    result.map_err(|error| Error::CannotRead {
        path: path.display().to_string(),
        error,
    })?;
    Ok(text)
}

/// Opens a file for buffered reading.
pub fn open(path: &Path) -> Result<std::io::BufReader<std::fs::File>, Error> {
    std::fs::File::open(path)
        .map(std::io::BufReader::new)
        .map_err(|error| Error::CannotRead {
            path: path.display().to_string(),
            error,
        })
}
