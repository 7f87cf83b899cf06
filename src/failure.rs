//! What a command can fail with: one type, whose [`Failure::class`] is the
//! one place the exit status is chosen from. The library's errors, of
//! whichever layer, arrive flattened into its top [`Error`]; beside them
//! are the command line's own (options that do not go together), a library
//! error with the way out the command suggests, and a library error about
//! a named file. The command line's own refusals are defined here too, so
//! that the plans and the commands use this file and it uses neither.

use knightsat::error::{
    BoardError, CnfError, EncodingError, ErrorClass, ProblemError, RunError, SatError, SearchError,
    TallyError, TourError,
};
use knightsat::model::verify::Violation;
use knightsat::Error;

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
    /// A count the time limit cut short, with what it counted by then.
    #[error(transparent)]
    CutShort(#[from] CutShort),
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
        match self {
            Failure::CutShort(_) => ErrorClass::Timeout,
            _ => self.library().map_or(ErrorClass::BadInput, Error::class),
        }
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

/// A count that `--timeout` cut short, and what it had counted: the
/// command's words, since what stands printed is the command's.
#[derive(Debug, thiserror::Error)]
pub enum CutShort {
    /// A count of the whole problem, after `found` tours (or orbits).
    #[error("the --timeout of {seconds} s ran out after {found} {}: there are at least {found}, maybe more (exit 124)", if *.orbits { "orbits (tours up to symmetry)" } else { "tours" })]
    Tours {
        /// The time limit.
        seconds: f64,
        /// The tours counted by then.
        found: u64,
        /// Whether they are orbits (`--up-to-symmetry`), not tours.
        orbits: bool,
    },
    /// An estimate, before its sample was counted.
    #[error("the --timeout of {seconds} s ran out before the sample's cubes were counted: no estimate (exit 124)")]
    Sample {
        /// The time limit.
        seconds: f64,
    },
    /// A count of numbered cubes, after `printed` whole cubes.
    #[error("the --timeout of {seconds} s ran out after {printed} cubes: each line printed is a whole cube; `knightsat sum` names the cubes left (exit 124)")]
    Cubes {
        /// The time limit.
        seconds: f64,
        /// The cubes whose lines were printed.
        printed: usize,
    },
}

/// A switch given for the encoding it does not belong to (a command-line
/// matter, so worded here).
#[derive(Debug, thiserror::Error)]
#[error("bad option: {switch} is for --encoding {belongs}, not --encoding {given}")]
pub struct SwitchOfOtherEncoding {
    /// The switch, as typed.
    pub switch: &'static str,
    /// The encoding it belongs to.
    pub belongs: &'static str,
    /// The encoding chosen.
    pub given: &'static str,
}

/// Options that cannot go together, in words (a command-line matter).
#[derive(Debug, thiserror::Error)]
#[error("bad option: {0}")]
pub struct OptionsConflict(pub String);

/// No board option was given (a command-line matter, so worded here).
#[derive(Debug, thiserror::Error)]
#[error("bad option: no board: give --board ROWSxCOLS, --size N{}", if *.puzzle_allowed { ", --board-file FILE or --puzzle FILE" } else { " or --board-file FILE" })]
pub struct NoBoard {
    /// Whether the command takes --puzzle.
    pub puzzle_allowed: bool,
}

/// `error` with a hint that names the way out, when there is one.
pub fn with_way_out(error: Error, hint: Option<String>) -> Failure {
    match hint {
        Some(hint) => WayOut { error, hint }.into(),
        None => error.into(),
    }
}

/// A library error and the route that would work instead, worded for the
/// command that failed.
#[derive(Debug, thiserror::Error)]
#[error("{error}")]
pub struct WayOut {
    /// What went wrong.
    #[source]
    pub error: Error,
    /// What to try instead, in the command's options.
    pub hint: String,
}
