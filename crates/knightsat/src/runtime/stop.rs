//! A flag that stops work on other threads: a solver, a search, a count.
//! A time limit raises it (`Stop::within`), or a worker that found what
//! the others were looking for.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use super::interrupt::Interrupt;
use super::{HoldsRunError, RunError};

/// A flag that stops solvers and searches from another thread: raised by a
/// time limit (`Stop::within`), or by a worker that found what the others
/// were looking for. Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A flag not yet raised.
    pub(crate) fn new() -> Stop {
        Stop::default()
    }

    /// Raises the flag: every solver holding it stops soon.
    pub(crate) fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag is raised.
    pub(crate) fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// [`RunError::Stopped`] once the flag is raised, for work that checks
    /// it now and then (a walk of the cubes run [`within`](Self::within)).
    pub(crate) fn check(&self) -> Result<(), RunError> {
        if self.is_stopped() {
            Err(RunError::Stopped)
        } else {
            Ok(())
        }
    }

    /// The flag itself, for code that watches a bare flag (the frontier
    /// counter, the backtracking counter).
    pub(crate) fn flag(&self) -> &AtomicBool {
        &self.0
    }

    /// The same flag as an [`Interrupt`], for the searches that watch one
    /// through their [`Deadline`](super::deadline::Deadline).
    pub(crate) fn as_interrupt(&self) -> crate::runtime::interrupt::Interrupt {
        Interrupt::sharing(Arc::clone(&self.0))
    }

    /// Runs `work` on this thread, raising this flag when `timeout` runs
    /// out or `interrupt` is raised. Work that was stopped by the time
    /// limit ([`RunError::Stopped`]) becomes [`RunError::Timeout`]; an
    /// answer that arrives in time is kept. Work during which `interrupt`
    /// was raised ends in [`RunError::Interrupted`], whatever it answered (a count cut
    /// short answers with part of its tours). When this returns, the work
    /// has returned: nothing is left running.
    pub(crate) fn within<T, E: HoldsRunError>(
        &self,
        timeout: Option<Duration>,
        interrupt: &Interrupt,
        work: impl FnOnce() -> Result<T, E>,
    ) -> Result<T, E> {
        if interrupt.is_raised() {
            return Err(RunError::Interrupted.into());
        }
        if timeout.is_none() && !interrupt.is_armed() {
            return work();
        }
        let expired = AtomicBool::new(false);
        let interrupted = AtomicBool::new(false);
        let (expired_flag, interrupted_flag) = (&expired, &interrupted);
        let (finished, waiting) = mpsc::channel::<()>();
        let result = std::thread::scope(|scope| {
            let watcher = std::thread::Builder::new().spawn_scoped(scope, move || {
                // A limit no clock can reach is waited for as none.
                let end = timeout.and_then(|limit| Instant::now().checked_add(limit));
                // An armed interrupt is looked at this often; a time limit
                // alone is waited for in one go.
                let poll = interrupt.is_armed().then_some(INTERRUPT_POLL);
                loop {
                    let left = end.map(|end| end.saturating_duration_since(Instant::now()));
                    let wait = match (left, poll) {
                        (Some(left), Some(poll)) => left.min(poll),
                        (Some(wait), None) | (None, Some(wait)) => wait,
                        (None, None) => unreachable!("returned above"),
                    };
                    match waiting.recv_timeout(wait) {
                        Err(mpsc::RecvTimeoutError::Timeout) => {}
                        // The work has returned.
                        _ => return,
                    }
                    if interrupt.is_raised() {
                        interrupted_flag.store(true, Ordering::Relaxed);
                        self.stop();
                        return;
                    }
                    if end.is_some_and(|end| Instant::now() >= end) {
                        expired_flag.store(true, Ordering::Relaxed);
                        self.stop();
                        return;
                    }
                }
            });
            // Without its watcher the run could not keep its time limit.
            if let Err(error) = watcher {
                return Err(RunError::NoThread {
                    message: error.to_string(),
                }
                .into());
            }
            let result = work();
            drop(finished);
            result
        });
        if interrupted.load(Ordering::Relaxed) {
            return Err(RunError::Interrupted.into());
        }
        match result {
            Err(error)
                if matches!(error.as_run(), Some(RunError::Stopped))
                    && expired.load(Ordering::Relaxed) =>
            {
                Err(RunError::Timeout {
                    seconds: timeout.map_or(0.0, |limit| limit.as_secs_f64()),
                }
                .into())
            }
            other => other,
        }
    }
}

/// How often [`Stop::within`] looks at an armed [`Interrupt`].
const INTERRUPT_POLL: Duration = Duration::from_millis(10);
