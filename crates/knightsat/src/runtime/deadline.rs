//! A time limit for a whole task made of many steps: a route of several
//! searches, a puzzle's many uniqueness checks, a backtracking search
//! checking the time now and then.

use std::time::{Duration, Instant};

use crate::error::Error;

/// When a time limit that started at [`Deadline::new`] runs out.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    limit: Option<(Instant, Duration)>,
}

impl Deadline {
    /// A deadline `timeout` from now; none without a timeout.
    pub fn new(timeout: Option<Duration>) -> Deadline {
        Deadline {
            limit: timeout.map(|limit| (Instant::now() + limit, limit)),
        }
    }

    /// The time left, for the next step's own time limit: `None` without
    /// a limit, [`Error::Timeout`] (with the whole limit) once none is
    /// left.
    pub fn left(self) -> Result<Option<Duration>, Error> {
        match self.limit {
            None => Ok(None),
            Some((end, _)) => {
                let left = end.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    Err(self.expired())
                } else {
                    Ok(Some(left))
                }
            }
        }
    }

    /// The whole limit in seconds (0 without one).
    pub fn seconds(self) -> f64 {
        self.limit.map_or(0.0, |(_, limit)| limit.as_secs_f64())
    }

    /// The instant the time is up, if there is a limit.
    pub fn until(self) -> Option<Instant> {
        self.limit.map(|(end, _)| end)
    }

    /// [`Error::Timeout`] once the time is up.
    pub(crate) fn check(self) -> Result<(), Error> {
        match self.limit {
            Some((end, _)) if Instant::now() >= end => Err(self.expired()),
            _ => Ok(()),
        }
    }

    /// The error for a task the deadline cut short, with the whole limit
    /// (a step's own error has only the time that was left for it).
    pub fn expired(self) -> Error {
        Error::Timeout {
            seconds: self.seconds(),
        }
    }

    /// `error` with the whole limit where it is a timeout, not the time an
    /// earlier step (the feasibility gate) left of it.
    pub fn with_whole_limit(self, error: Error) -> Error {
        match error {
            Error::Timeout { .. } => self.expired(),
            Error::TimedOutPartway { found, .. } => Error::TimedOutPartway {
                seconds: self.seconds(),
                found,
            },
            error => error,
        }
    }
}
