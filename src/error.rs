//! The library's error type: one enum over everything that can go wrong,
//! with the values a caller needs to word it.
//!
//! Modules below this one (board, problem, verify) have their own error
//! types, wrapped here, so that no module depends on a module that depends
//! on it.

use crate::board::BoardError;
use crate::problem::ProblemError;
use crate::verify::Violation;

/// Everything that can go wrong in knightsat's library.
///
/// Each message is one line that names the problem in the library's own
/// terms (no command-line flags); [`Error::class`] tells the command-line
/// tool which exit status it means.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A board, square or leaper that is malformed, off the board or a hole.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A start, end or clue that does not fit the board or the other clues
    /// (in the message, so deliberately not a `source`).
    #[error("bad option: {0}")]
    Problem(ProblemError),
    /// A maximum clause length below 3, which splitting cannot reach.
    #[error("the maximum clause length must be at least 3, got {len}")]
    ClauseLengthTooShort {
        /// The length asked for.
        len: usize,
    },
    /// A block schedule with more bands than the board has ranks or files.
    #[error(
        "{rows}x{cols} blocks do not fit the {board} board: each block needs a rank and a file"
    )]
    BlocksDoNotFit {
        /// Bands of ranks asked for.
        rows: usize,
        /// Bands of files asked for.
        cols: usize,
        /// The board, as it prints.
        board: String,
    },
    /// An at-most-one encoding name that is not known.
    #[error("unknown at-most-one encoding '{name}' (expected one of: {known})")]
    UnknownAmo {
        /// The name given.
        name: String,
        /// The known names, comma-separated.
        known: String,
    },
    /// One file asked for as two outputs (say a proof and its CNF).
    #[error("{path} is given for two outputs")]
    SameOutputTwice {
        /// The path, as given.
        path: String,
    },
    /// A formula too big to solve in this process within the memory budget.
    #[error("solving the {board} board in-process would need about {estimate_mib} MiB, over the budget of {budget_mib} MiB")]
    OverMemoryBudget {
        /// The board, as it prints.
        board: String,
        /// The estimate.
        estimate_mib: u64,
        /// The budget.
        budget_mib: u64,
    },
    /// A combination of requests that cannot be served together.
    #[error("{0}")]
    Unsupported(Unsupported),
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
    /// A move list given with no board to read it on.
    #[error("cannot read the tour: a move list needs a board (JSON tours carry their own)")]
    MoveListNeedsBoard,
    /// A well-formed tour that breaks a rule (in the message, so
    /// deliberately not a `source`: the command line prints sources after it).
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

impl From<ProblemError> for Error {
    fn from(error: ProblemError) -> Error {
        Error::Problem(error)
    }
}

impl From<Violation> for Error {
    fn from(violation: Violation) -> Error {
        Error::InvalidTour(violation)
    }
}

/// Requests that cannot be served together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsupported {
    /// Proofs are written by the in-process solver only.
    ProofWithExternalSolver,
    /// Every tour is enumerated by the in-process solver only.
    AllWithExternalSolver,
    /// Enumeration runs without a time limit.
    AllWithTimeout,
    /// Extra solver arguments go to external solver programs only.
    ArgumentsForVarisat,
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Unsupported::ProofWithExternalSolver => {
                "proofs are written by the in-process solver (varisat) only"
            }
            Unsupported::AllWithExternalSolver => {
                "every tour is enumerated by the in-process solver (varisat) only"
            }
            Unsupported::AllWithTimeout => "every tour is enumerated without a time limit",
            Unsupported::ArgumentsForVarisat => {
                "extra solver arguments are for external solvers, not varisat"
            }
        })
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
            Error::Board(_)
            | Error::Problem(_)
            | Error::ClauseLengthTooShort { .. }
            | Error::BlocksDoNotFit { .. }
            | Error::UnknownAmo { .. }
            | Error::Unsupported(_)
            | Error::SameOutputTwice { .. }
            | Error::OverMemoryBudget { .. }
            | Error::NotKnightsatCnf(_)
            | Error::SolverOutput { .. }
            | Error::BadModel(_)
            | Error::BadTourInput(_)
            | Error::MoveListNeedsBoard
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
