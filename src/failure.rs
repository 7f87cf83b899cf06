//! What a command can fail with: one type, whose [`Failure::class`] is the
//! one place the exit status is chosen from. The library's errors, of
//! whichever layer, arrive flattened into its top [`Error`]; beside them
//! are the command line's own (options that do not go together), a library
//! error with the way out the command suggests, and a library error about
//! a named file.

use knightsat::error::{
    BoardError, CnfError, EncodingError, ErrorClass, ProblemError, RunError, SatError, SearchError,
    TallyError, TourError,
};
use knightsat::model::verify::Violation;
use knightsat::Error;

use crate::commands::WayOut;
use crate::plan::{NoBoard, OptionsConflict, SwitchOfOtherEncoding};

/// A command's result.
pub type Fallible<T> = Result<T, Failure>;

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// The library's error.
    #[error(transparent)]
    Library(#[from] Error),
    /// A library error and the route that would work instead.
    #[error(transparent)]
    WayOut(Box<WayOut>),
    /// A library error about the file `path` (a CNF read whole).
    #[error("{path}: {error}")]
    InFile {
        /// The file, as given.
        path: String,
        /// What is wrong with it.
        error: Box<Error>,
    },
    /// No board option was given.
    #[error(transparent)]
    NoBoard(#[from] NoBoard),
    /// A switch of an encoding other than the one chosen.
    #[error(transparent)]
    SwitchOfOtherEncoding(#[from] SwitchOfOtherEncoding),
    /// Options that cannot go together.
    #[error(transparent)]
    OptionsConflict(#[from] OptionsConflict),
}

impl Failure {
    /// The library error `error` about the file `path`.
    pub fn in_file(path: &std::path::Path, error: impl Into<Error>) -> Failure {
        Failure::InFile {
            path: path.display().to_string(),
            error: Box::new(error.into()),
        }
    }

    /// Which kind of failure this is, which the exit status says: the
    /// library error's class, and bad input for the command line's own
    /// refusals.
    pub fn class(&self) -> ErrorClass {
        self.library().map_or(ErrorClass::BadInput, Error::class)
    }

    /// The library error within, if there is one.
    pub fn library(&self) -> Option<&Error> {
        match self {
            Failure::Library(error) => Some(error),
            Failure::InFile { error, .. } => Some(error),
            Failure::WayOut(way_out) => Some(&way_out.error),
            _ => None,
        }
    }
}

impl From<WayOut> for Failure {
    fn from(way_out: WayOut) -> Failure {
        Failure::WayOut(Box::new(way_out))
    }
}

/// Each layer's error reaches the command as the library's top error.
macro_rules! from_layer {
    ($($layer:ty),*) => {$(
        impl From<$layer> for Failure {
            fn from(error: $layer) -> Failure {
                Failure::Library(Error::from(error))
            }
        }
    )*};
}

from_layer!(
    BoardError,
    CnfError,
    EncodingError,
    ProblemError,
    RunError,
    SatError,
    SearchError,
    TallyError,
    TourError,
    Violation
);

/// Writing what the command prints (into memory, then out) failed.
impl From<std::io::Error> for Failure {
    fn from(error: std::io::Error) -> Failure {
        Failure::Library(Error::io("writing the output", error))
    }
}

/// Serialising what the command prints failed.
impl From<serde_json::Error> for Failure {
    fn from(error: serde_json::Error) -> Failure {
        Failure::Library(Error::io("writing JSON", std::io::Error::other(error)))
    }
}

/// A number given that this machine's sizes cannot hold.
impl From<std::num::TryFromIntError> for Failure {
    fn from(error: std::num::TryFromIntError) -> Failure {
        Failure::OptionsConflict(OptionsConflict(format!(
            "a number too large for this machine: {error}"
        )))
    }
}
