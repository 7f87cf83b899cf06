//! Why a frontier count stops without a count.

use std::fmt;

/// Why a count did not finish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FrontierError {
    /// The stop flag was set.
    Stopped,
    /// A count passed 2^256 − 1.
    Overflow,
    /// The state tables would need more memory than the budget.
    OverMemory {
        /// Bytes that would have been in use.
        needed: u64,
        /// The budget.
        budget: u64,
    },
    /// The frontier is wider than a state can hold.
    TooWide {
        /// The narrowest frontier found for this board.
        width: usize,
        /// The widest a state holds.
        max: usize,
    },
    /// Writing or reading the states kept on disk failed.
    Disk {
        /// The directory they were kept in.
        dir: std::path::PathBuf,
        /// What failed.
        message: String,
        /// The most bytes the count had on disk at once.
        on_disk: u64,
    },
    /// Meeting in the middle, asked for by name or in parts, would pass the
    /// budget: it holds the states at its cut in memory, where the line
    /// orders keep on disk what does not fit.
    MeetOverMemory {
        /// Bytes that would have been in use.
        needed: u64,
    },
    /// A thread could not be started (an address-space or process limit).
    NoThread {
        /// What the system said.
        message: String,
    },
    /// Counting in parts, meeting in the middle, a half's 64-bit counts
    /// overflowed: the whole would be counted forward, on other parts.
    PartsOutgrown,
    /// A board of more squares than the counter numbers.
    TooManySquares {
        /// The board's squares, holes included.
        squares: usize,
        /// The most it takes.
        max: usize,
    },
    /// The checkpoint could not be read or written.
    Checkpoint(crate::error::CheckpointError),
}

impl From<crate::error::CheckpointError> for FrontierError {
    fn from(error: crate::error::CheckpointError) -> FrontierError {
        FrontierError::Checkpoint(error)
    }
}

impl fmt::Display for FrontierError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrontierError::Stopped => write!(f, "the count was stopped"),
            FrontierError::NoThread { message } => write!(f, "no thread could start: {message}"),
            FrontierError::MeetOverMemory { needed } => write!(
                f,
                "meeting in the middle needs more than {needed} bytes in memory"
            ),
            FrontierError::Overflow => write!(f, "the count does not fit in 256 bits"),
            FrontierError::OverMemory { needed, budget } => write!(
                f,
                "the count needs {needed} bytes of state tables, over the budget of {budget}"
            ),
            FrontierError::TooWide { width, max } => write!(
                f,
                "the frontier is {width} squares wide; at most {max} are supported"
            ),
            FrontierError::Disk { dir, message, .. } => {
                write!(f, "cannot keep the states in {}: {message}", dir.display())
            }
            FrontierError::PartsOutgrown => write!(
                f,
                "counting in parts meets in the middle, whose halves' counts pass 64 bits here"
            ),
            FrontierError::TooManySquares { squares, max } => {
                write!(
                    f,
                    "a board of {squares} squares: at most {max} are supported"
                )
            }
            FrontierError::Checkpoint(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for FrontierError {}
