//! A time limit for a whole task made of many steps: a route of several
//! searches, a puzzle's many uniqueness checks, a backtracking search
//! checking the time now and then (and for an [`Interrupt`] from the
//! caller, where it has one).

use crate::runtime::{HoldsRunError, RunError};
use std::time::{Duration, Instant};

use crate::runtime::interrupt::Interrupt;

/// The shortest time limit taken: a millisecond. Anything shorter ends
/// before any method has started (1e-10 s and 1e-300 s both round to no
/// time at all), so it is refused rather than read differently by each.
pub const SHORTEST_TIME_LIMIT: f64 = 1e-3;

/// The longest time limit taken: 5.8e11 s, about 18,000 years. Past
/// about 9.2e18 s no clock can say when a limit ends; this bound is far
/// within it and easy to say.
pub const LONGEST_TIME_LIMIT: f64 = 5.8e11;

/// A time limit of `seconds`, from [`SHORTEST_TIME_LIMIT`] to
/// [`LONGEST_TIME_LIMIT`]; anything else, not-a-number included, is
/// refused ([`RunError::BadTimeLimit`]).
pub fn time_limit(seconds: f64) -> Result<Duration, RunError> {
    if (SHORTEST_TIME_LIMIT..=LONGEST_TIME_LIMIT).contains(&seconds) {
        if let Ok(limit) = Duration::try_from_secs_f64(seconds) {
            return Ok(limit);
        }
    }
    // 1e300 as 1e300, not as its 301 digits.
    let shown = if seconds.is_finite()
        && (seconds.abs() >= 1e9 || (seconds != 0.0 && seconds.abs() < 1e-3))
    {
        format!("{seconds:e}")
    } else {
        seconds.to_string()
    };
    Err(RunError::BadTimeLimit(shown))
}

/// When a time limit that started at `Deadline::new` runs out; a search
/// that checks it (`Deadline::check`) also stops when the
/// [`Interrupt`] it was given is raised.
#[derive(Clone, Debug)]
pub struct Deadline {
    limit: Option<(Instant, Duration)>,
    interrupt: Interrupt,
}

impl Deadline {
    /// A deadline `timeout` from now; none without a timeout.
    pub(crate) fn new(timeout: Option<Duration>) -> Deadline {
        Deadline {
            // A limit no clock can reach is no limit (Request's timeout is
            // any Duration a caller builds).
            limit: timeout.and_then(|limit| Some((Instant::now().checked_add(limit)?, limit))),
            interrupt: Interrupt::default(),
        }
    }

    /// This deadline, and [`RunError::Interrupted`] from [`check`](Self::check)
    /// once `interrupt` is raised.
    #[must_use]
    pub(crate) fn interrupted_by(self, interrupt: &Interrupt) -> Deadline {
        Deadline {
            interrupt: interrupt.clone(),
            ..self
        }
    }

    /// The time left, for the next step's own time limit: `None` without
    /// a limit, [`RunError::Timeout`] (with the whole limit) once none is
    /// left.
    pub(crate) fn left(&self) -> Result<Option<Duration>, RunError> {
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

    /// The time left as the next step's own time limit, where running out
    /// is the step's to report: `None` without a limit, and a limit that
    /// has already run out (a nanosecond) once none is left.
    pub(crate) fn limit_left(&self) -> Option<Duration> {
        self.left().unwrap_or(Some(Duration::from_nanos(1)))
    }

    /// The whole limit in seconds (0 without one).
    pub(crate) fn seconds(&self) -> f64 {
        self.limit.map_or(0.0, |(_, limit)| limit.as_secs_f64())
    }

    /// [`RunError::Timeout`] once the time is up, [`RunError::Interrupted`] once
    /// the interrupt is raised.
    pub(crate) fn check(&self) -> Result<(), RunError> {
        if self.interrupt.is_raised() {
            return Err(RunError::Interrupted);
        }
        match self.limit {
            Some((end, _)) if Instant::now() >= end => Err(self.expired()),
            _ => Ok(()),
        }
    }

    /// The error for a task the deadline cut short, with the whole limit
    /// (a step's own error has only the time that was left for it).
    pub(crate) fn expired(&self) -> RunError {
        RunError::Timeout {
            seconds: self.seconds(),
        }
    }

    /// `error` with the whole limit where it is a timeout, not the time an
    /// earlier step (the feasibility gate) left of it.
    pub(crate) fn with_whole_limit<E: HoldsRunError>(&self, error: E) -> E {
        match error.as_run() {
            Some(RunError::Timeout { .. }) => self.expired().into(),
            Some(&RunError::TimedOutPartway { found, .. }) => RunError::TimedOutPartway {
                seconds: self.seconds(),
                found,
            }
            .into(),
            _ => error,
        }
    }
}
