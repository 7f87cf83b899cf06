//! How many threads a job runs on: what the caller asked for, or one per
//! core when it asked for 0.

use std::num::NonZeroUsize;

/// The cores this process may run on (1 when the system cannot tell).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

/// The number of threads `jobs` asks for: itself, or one per core for 0.
pub fn resolve_jobs(jobs: usize) -> usize {
    if jobs == 0 {
        cores()
    } else {
        jobs
    }
}

/// Starts `run(work)` on a new thread of `scope`, or hands `work` back
/// when no thread can be had (an address-space limit), for the caller to
/// do on its own thread. The work is sent to the thread once it has
/// started, so that a thread that cannot start does not take it along.
pub(crate) fn spawn_or_hand_back<'scope, W: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    work: W,
    run: impl FnOnce(W) + Send + 'scope,
) -> Result<(), W> {
    let (give, take) = std::sync::mpsc::channel::<W>();
    let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
        if let Ok(work) = take.recv() {
            run(work);
        }
    });
    match spawned {
        Ok(_) => give
            .send(work)
            .map_err(|std::sync::mpsc::SendError(work)| work),
        Err(_) => Err(work),
    }
}
