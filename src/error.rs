//! The library's error type.

use crate::tour::Violation;

/// Everything that can go wrong in knightsat's library.
///
/// Each message is one line that names the problem; [`Error::is_bad_input`]
/// tells the command-line tool whether to exit with status 2 (bad input) or 1.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A board size that is malformed, empty or too large.
    #[error("bad board: {0}")]
    BadBoard(String),
    /// A square name that is malformed or off the board.
    #[error("bad square: {0}")]
    BadSquare(String),
    /// An option value out of range or options that contradict each other.
    #[error("bad option: {0}")]
    BadOption(String),
    /// A CNF file that knightsat did not write (or whose comments were removed).
    #[error("{0}")]
    NotKnightsatCnf(String),
    /// Solver output that cannot be read.
    #[error("solver output line {line}: {message}")]
    SolverOutput {
        /// One-based line number in the solver output.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// A satisfying assignment that does not describe a sequence of squares.
    #[error("the model is not a tour: {0}")]
    BadModel(String),
    /// A puzzle grid that cannot be read: wrong shape, bad cells, repeated numbers.
    #[error("bad puzzle: {0}")]
    BadPuzzle(String),
    /// A tour (as text or JSON) that cannot be read.
    #[error("cannot read the tour: {0}")]
    BadTourInput(String),
    /// A well-formed tour that breaks a rule.
    #[error("not a valid tour: {0}")]
    InvalidTour(Violation),
    /// The in-process solver failed.
    #[error("solver failed: {0}")]
    Solver(String),
    /// An external solver program that cannot be started.
    #[error("cannot run solver '{program}': {reason}")]
    SolverMissing {
        /// The program as given.
        program: String,
        /// Why it could not be started.
        reason: String,
    },
    /// An external solver that crashed, failed or printed nothing usable.
    #[error("solver '{program}' failed: {detail}")]
    SolverFailed {
        /// The program as given.
        program: String,
        /// What went wrong.
        detail: String,
    },
    /// The solver gave up without an answer (`s UNKNOWN`).
    #[error("the solver gave no answer (UNKNOWN)")]
    NoAnswer,
    /// The time limit ran out before the solver answered.
    #[error("no answer within {seconds} s")]
    Timeout {
        /// The time limit.
        seconds: f64,
    },
    /// An input file that cannot be read.
    #[error("cannot read {path}: {error}")]
    CannotRead {
        /// The file, or `-` for stdin.
        path: String,
        /// The underlying error (in the message, so deliberately not a
        /// `source`: the command line prints an error's sources after it).
        error: std::io::Error,
    },
    /// Reading or writing a file or stream failed.
    #[error("{context}: {error}")]
    Io {
        /// What was being read or written.
        context: String,
        /// The underlying error (in the message, so deliberately not a
        /// `source`: the command line prints an error's sources after it).
        error: std::io::Error,
    },
}

impl From<Violation> for Error {
    fn from(violation: Violation) -> Error {
        Error::InvalidTour(violation)
    }
}

/// The broad kinds of failure, which the command-line tool maps to exit statuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorClass {
    /// The caller's input or usage is wrong (exit status 2).
    BadInput,
    /// A rejected tour or a failure (exit status 1).
    Failure,
    /// The time limit ran out (exit status 124, as `timeout(1)` uses).
    Timeout,
}

impl Error {
    /// Which kind of failure this is.
    pub fn class(&self) -> ErrorClass {
        match self {
            Error::BadBoard(_)
            | Error::BadSquare(_)
            | Error::BadOption(_)
            | Error::NotKnightsatCnf(_)
            | Error::SolverOutput { .. }
            | Error::BadModel(_)
            | Error::BadTourInput(_)
            | Error::BadPuzzle(_)
            | Error::CannotRead { .. }
            | Error::SolverMissing { .. } => ErrorClass::BadInput,
            Error::Timeout { .. } => ErrorClass::Timeout,
            Error::InvalidTour(_)
            | Error::Solver(_)
            | Error::SolverFailed { .. }
            | Error::NoAnswer
            | Error::Io { .. } => ErrorClass::Failure,
        }
    }

    /// Wraps an I/O error with what was being done.
    pub fn io(context: impl Into<String>, error: std::io::Error) -> Error {
        Error::Io {
            context: context.into(),
            error,
        }
    }

    /// The kind of the underlying I/O error, if this is one.
    pub fn io_kind(&self) -> Option<std::io::ErrorKind> {
        match self {
            Error::Io { error, .. } | Error::CannotRead { error, .. } => Some(error.kind()),
            _ => None,
        }
    }
}
