//! The run's failures, which every layer above may meet: a time limit or
//! an interrupt, and reading and writing files.

/// What can go wrong around the work: the time, the caller, the files.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A thread the run needs could not start (an address-space or
    /// process limit).
    #[error("cannot start a thread: {message}")]
    NoThread {
        /// What the system said.
        message: String,
    },
    /// The time limit ran out before the solver answered.
    #[error("no answer within {seconds} s")]
    Timeout {
        /// The time limit.
        seconds: f64,
    },
    /// The time limit ran out while every tour was being listed or
    /// counted: the `found` tours reported so far are only part of them.
    #[error("the time limit of {seconds} s ran out after {found} tours: they are part of the list, not all of it")]
    TimedOutPartway {
        /// The time limit.
        seconds: f64,
        /// Tours reported before it ran out.
        found: u64,
    },
    /// The caller raised the request's
    /// [`Interrupt`](crate::runtime::interrupt::Interrupt): the work
    /// stopped before it was done, and what it had found is dropped.
    #[error("interrupted")]
    Interrupted,
    /// A search was stopped from another thread before it answered (by a
    /// time limit, or because another thread found what it looked for);
    /// what stopped it turns this into its own answer.
    #[error("the search was stopped")]
    Stopped,
    /// A time limit that is no number of seconds from a millisecond to
    /// what a duration holds.
    #[error("{0} is not a number of seconds from 0.001 to 5.8e11")]
    BadTimeLimit(String),
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
    /// One file asked for as two outputs (say a proof and its CNF).
    #[error("{path} is given for two outputs")]
    SameOutputTwice {
        /// The path, as given.
        path: String,
    },
    /// A directory to be replaced that holds something the run did not
    /// write (it is left alone).
    #[error("{dir} holds {entry}, which is none of the files it would be replaced with: give an empty or new directory")]
    DirectoryNotOurs {
        /// The directory, as given.
        dir: String,
        /// The first entry found that is not ours.
        entry: String,
    },
}

impl RunError {
    /// Wraps an I/O error with what was being done.
    pub fn io(context: impl Into<String>, error: std::io::Error) -> RunError {
        RunError::Io {
            context: context.into(),
            error,
        }
    }
}

/// An error type that can hold the run's failures: what a task run under a
/// time limit or an interrupt may return, whichever layer's error it is.
pub trait HoldsRunError: From<RunError> {
    /// The run's failure this is, if it is one.
    fn as_run(&self) -> Option<&RunError>;
}

impl HoldsRunError for RunError {
    fn as_run(&self) -> Option<&RunError> {
        Some(self)
    }
}
